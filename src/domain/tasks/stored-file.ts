// A stored file (File Upload answer or comment attachment) by its download token.
// The url is not protected by the API key (spec v3 2.4 comment attachment): the
// token is the secret; a file is served only on its workspace's regional address.
import type { Db } from '../../store/open';
import type { Region } from '../../context';

export interface StoredFile {
  name: string;
  contentType: string;
  data: Buffer;
}

export function fileByToken(db: Db, token: string, region: Region): StoredFile | undefined {
  const f = db
    .prepare<[string], { name: string; content_type: string; data: Buffer; region: string }>(
      'SELECT f.name, f.content_type, f.data, w.region FROM files f JOIN workspaces w ON w.id = f.workspace_id WHERE f.token = ?',
    )
    .get(token);
  if (!f || f.region !== region) return undefined;
  return { name: f.name, contentType: f.content_type, data: f.data };
}
