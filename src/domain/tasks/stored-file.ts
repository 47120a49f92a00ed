// A stored file (File Upload answer or comment attachment) by its download token.
// The url is not protected by the API key (spec v3 2.4 comment attachment): the
// token is the secret; a file is served only on its workspace's regional address.
import type { Db } from '../../store/open';
import type { Region } from '../../context';
import { fileWithRegionByToken } from '../../rows/files';

export interface StoredFile {
  name: string;
  contentType: string;
  data: Buffer;
}

export function fileByToken(db: Db, token: string, region: Region): StoredFile | undefined {
  const f = fileWithRegionByToken(db, token);
  if (!f || f.region !== region) return undefined;
  return { name: f.name, contentType: f.content_type, data: f.data };
}
