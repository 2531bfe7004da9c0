/** Tar streams on the host side (tar-stream 3 is streamx: consumed with for-await, never piped by hand). */
import { extract, type Header, pack } from 'tar-stream';

export interface TarEntry {
  /** Absolute path in the container; stored without the leading slash. */
  path: string;
  type: 'file' | 'directory';
  mode: number;
  uid: number;
  content?: Buffer;
}

export async function packTar(entries: TarEntry[]): Promise<Buffer> {
  const p = pack();
  const mtime = new Date();
  for (const e of entries) {
    const header: Partial<Header> & { name: string } = {
      name: e.path.replace(/^\/+/, ''),
      type: e.type,
      mode: e.mode,
      uid: e.uid,
      gid: e.uid,
      mtime,
    };
    if (e.type === 'file') p.entry(header, e.content ?? Buffer.alloc(0));
    else p.entry(header);
  }
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of p) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Regular files of a tar, keyed by absolute path. Nothing is written here: links, devices and
 * folders in the stream are skipped, and callers take only the paths they asked for.
 */
export async function unpackFiles(tar: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  if (tar.length === 0) return files;
  const x = extract();
  x.end(tar);
  for await (const entry of x) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (entry.header.type === 'file')
      files.set(`/${entry.header.name.replace(/^\/+/, '')}`, Buffer.concat(chunks));
  }
  return files;
}
