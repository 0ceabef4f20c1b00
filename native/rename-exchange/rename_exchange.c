/*
 * exchange(a, b): swaps what two paths of one file system name, in one step (Linux
 * renameat2 with RENAME_EXCHANGE, macOS renamex_np with RENAME_SWAP). Node's fs has no such
 * call; docs/vault-safety.md explains why a note write needs it. Returns 0, or the errno of the
 * failure (the JavaScript side turns it into an error with the usual code: ENOENT, EINVAL, ...).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <node_api.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
/* The system call itself: C libraries older than glibc 2.28, and musl, have no wrapper. */
static int swap_paths(const char *a, const char *b) {
#ifdef SYS_renameat2
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
  errno = ENOSYS;
  return -1;
#endif
}
#elif defined(__APPLE__)
#include <stdio.h>
static int swap_paths(const char *a, const char *b) { return renamex_np(a, b, RENAME_SWAP); }
#else
static int swap_paths(const char *a, const char *b) {
  (void)a;
  (void)b;
  errno = ENOSYS;
  return -1;
}
#endif

/* A JavaScript string argument as a new UTF-8 C string (NULL, with an exception pending, if not). */
static char *path_arg(napi_env env, napi_value value) {
  size_t length;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "exchange: paths must be strings");
    return NULL;
  }
  char *path = malloc(length + 1);
  if (path == NULL) {
    napi_throw_error(env, NULL, "exchange: out of memory");
    return NULL;
  }
  napi_get_value_string_utf8(env, value, path, length + 1, &length);
  return path;
}

static napi_value exchange(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 2) {
    napi_throw_type_error(env, NULL, "exchange: two paths are needed");
    return NULL;
  }
  char *a = path_arg(env, argv[0]);
  if (a == NULL) return NULL;
  char *b = path_arg(env, argv[1]);
  if (b == NULL) {
    free(a);
    return NULL;
  }
  int failure = swap_paths(a, b) == 0 ? 0 : errno;
  free(a);
  free(b);
  napi_value result;
  napi_create_int32(env, failure, &result);
  return result;
}

NAPI_MODULE_INIT(/* napi_env env, napi_value exports */) {
  napi_value fn;
  napi_create_function(env, "exchange", NAPI_AUTO_LENGTH, exchange, NULL, &fn);
  napi_set_named_property(env, exports, "exchange", fn);
  return exports;
}
