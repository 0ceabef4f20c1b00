# The rename-exchange addon (docs/vault-safety.md): built at install by scripts/build-native.mjs.
{
  "targets": [
    {
      "target_name": "rename_exchange",
      "sources": ["rename_exchange.c"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
