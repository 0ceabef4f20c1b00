/**
 * Short confirmations ("Webhook created successfully") in a polite live region, so screen
 * readers announce them without moving focus. Each disappears after a few seconds.
 */
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useState } from 'preact/hooks';

interface Notice {
  id: number;
  text: string;
  kind: 'info' | 'error';
}

type Notify = (text: string, kind?: Notice['kind']) => void;

const NoticeContext = createContext<Notify>(() => {});
const VISIBLE_MS = 5000;
let nextId = 1;

export function NoticeProvider({ children }: { children: ComponentChildren }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const notify = useCallback<Notify>((text, kind = 'info') => {
    const id = nextId++;
    setNotices((list) => [...list.slice(-3), { id, text, kind }]);
    setTimeout(() => setNotices((list) => list.filter((n) => n.id !== id)), VISIBLE_MS);
  }, []);
  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <div class="notices" role="status" aria-live="polite">
        {notices.map((n) => (
          <p key={n.id} class={`notice ${n.kind}`}>
            {n.text}
          </p>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export const useNotify = (): Notify => useContext(NoticeContext);
