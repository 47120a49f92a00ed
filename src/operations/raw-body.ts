// A success body that is not JSON (the v3 CSV export: text/csv). The REST writer sends
// the bytes as they are with this Content-Type (src/transports/web/respond.ts); the
// contract check and any JSON writer see the text (toJSON).
export class RawBody {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string,
  ) {}
  toJSON(): string {
    return this.bytes.toString('utf8');
  }
}
