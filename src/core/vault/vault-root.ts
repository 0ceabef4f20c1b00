/**
 * The vault folder itself, as the server started on it. A folder moved away or unmounted while
 * serving must not look like every note deleted: the watcher would report a `task.deleted` for
 * each note (webhooks to every subscriber, which may delete the tasks downstream), a write would
 * create its folders again at the old path (an empty mount point), and nothing would watch the
 * folder once it is back. So the store asks here before it believes a note gone, before a read
 * and before a write, and a check every `intervalMs` notices a loss no note event shows (an
 * unmount) and the folder's return.
 *
 * The folder counts as back when the same folder (device, inode and creation time) is at the path
 * again, or a folder there holds some of the notes the index knew (a share mounted again may get a
 * new device number). An empty folder in its place (the mount point of an unmounted drive) never
 * counts: taken for the vault, it would have every note reported deleted.
 */
import { promises as fs, statSync, type Stats } from 'node:fs';
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import { DomainError } from '../errors.js';

export interface VaultRootOptions {
  root: string;
  /** How often the folder is looked at (every note event looks too). */
  intervalMs: number;
  /** Indexed notes' paths, to recognise the vault in a folder that is not the one it started on. */
  knownNotes: () => readonly string[];
  /** Whether a vault-relative note path exists in the folder now at the root path. */
  noteExists: (rel: string) => boolean;
  onLost: () => void;
  onBack: () => void;
  clock?: Clock;
}

/** Indexed notes looked for, spread over the index, in a folder that may be the vault. */
const SAMPLE_NOTES = 200;

export class VaultRoot {
  private identity: Stats | undefined;
  private lostAt: number | undefined;
  /** A folder in the vault's place already found not to be it, left until it changes. */
  private rejected: string | undefined;
  private timer: TimerHandle | undefined;

  constructor(private readonly options: VaultRootOptions) {}

  /**
   * Takes the folder now at the path as the vault and starts the periodic check. Its look is
   * asynchronous, and the next is armed only once it is answered: a network share that stopped
   * answering holds one thread of the pool, never the event loop (requests served from the index
   * go on being answered).
   */
  start(): void {
    this.identity = statSync(this.options.root);
    const clock = this.options.clock ?? systemClock;
    const tick = (): void => {
      void fs
        .stat(this.options.root)
        .then(
          (now) => now,
          () => undefined,
        )
        .then((now) => {
          if (!this.timer) return;
          this.judge(now);
          this.timer = clock.setTimer(this.options.intervalMs, tick);
        });
    };
    this.timer = clock.setTimer(this.options.intervalMs, tick);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** When the folder went missing (epoch ms, by the clock); undefined while it is in place. */
  get lostSince(): number | undefined {
    return this.lostAt;
  }

  /**
   * Looks at the path now: reports a loss or a return (onLost, onBack) and answers whether the
   * vault folder is in place.
   */
  check(): boolean {
    if (!this.identity) return true;
    // A folder that cannot be looked at (a folder above it made private) is as good as gone.
    let now: Stats | undefined;
    try {
      now = statSync(this.options.root, { throwIfNoEntry: false });
    } catch {
      now = undefined;
    }
    return this.judge(now);
  }

  /** Compares what is at the path now with the vault folder; reports a loss or a return. */
  private judge(now: Stats | undefined): boolean {
    const then = this.identity;
    if (!then) return true;
    // The creation time too, where the file system keeps one: a new file system mounted in the
    // same place may reuse both numbers (a tmpfs made again does).
    const same =
      now?.isDirectory() === true &&
      now.ino === then.ino &&
      now.dev === then.dev &&
      now.birthtimeMs === then.birthtimeMs;
    if (this.lostAt === undefined) {
      if (same) return true;
      this.lostAt = (this.options.clock ?? systemClock).now();
      this.options.onLost();
      return false;
    }
    if (!same && !(now?.isDirectory() && this.holdsVault(now))) return false;
    this.identity = now;
    this.lostAt = undefined;
    this.rejected = undefined;
    this.options.onBack();
    return true;
  }

  /** Throws UNAVAILABLE (503) unless the vault folder is in place. */
  assertInPlace(consequence: string): void {
    if (this.check()) return;
    throw new DomainError('UNAVAILABLE', `the vault folder ${this.options.root} is gone (moved or unmounted)${consequence}`);
  }

  /** Whether another folder at the path holds some of the indexed notes (an empty vault: any). */
  private holdsVault(folder: Stats): boolean {
    const key = `${folder.dev}:${folder.ino}:${folder.mtimeMs}`;
    if (this.rejected === key) return false;
    const notes = this.options.knownNotes();
    const step = Math.max(1, Math.floor(notes.length / SAMPLE_NOTES));
    for (let i = 0; i < notes.length; i += step) {
      if (this.options.noteExists(notes[i] as string)) return true;
    }
    if (notes.length === 0) return true;
    this.rejected = key;
    return false;
  }
}
