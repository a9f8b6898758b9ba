/** What pages know of the signed-in reader (never more than the header and controls need). */
export interface CurrentUser {
  id: string;
  firstName: string | null;
  role: "USER" | "ADMIN";
}
