// Files in and out of the browser: a picked file sent as base64 in a JSON body, and an answer
// saved as a download (the export routes need a key or token header, so a plain link will not do).
import type { Answer } from './api';

/** Sends the file picked in an `<input type="file">`, read as base64, then clears the input for the next pick. */
export async function sendPickedFile(ev: Event, send: (file: File, base64: string) => Promise<unknown>): Promise<void> {
  const input = ev.target as HTMLInputElement;
  const file = input.files?.[0];
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  await send(file, btoa(bin));
  input.value = '';
}

/** GET `url` and save the body as a download, named as its Content-Disposition says; a refusal comes back as the answer. */
export async function saveDownload(url: string, headers: Record<string, string>, fallbackName: string): Promise<Answer & { name?: string }> {
  const res = await fetch(url, { headers });
  if (!res.ok) return { ok: false, status: res.status, body: undefined, error: (await res.json().catch(() => undefined))?.error ?? { code: `HTTP_${res.status}`, message: '' } };
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return { ok: true, status: 200, body: undefined, name };
}
