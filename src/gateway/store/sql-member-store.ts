// Members in the `members` table; passwords only as scrypt hashes (members/password-hash.ts).
import type { SqlDatabase } from "../database/sql-database";
import { normaliseEmail } from "../members/member-email";
import { MEMBER_PASSWORDS, NO_PASSWORD, type PasswordHashing } from "../members/password-hash";
import type { Member, MemberStore } from "./gateway-store";
import { SharedLookups } from "./shared-lookups";

interface MemberRow {
  email: string;
  admin: boolean;
  budget: number | null;
  blocked: boolean;
}

const COLUMNS = "email, admin, budget, blocked";

const toMember = ({ email, admin, budget, blocked }: MemberRow): Member => ({
  email,
  admin,
  budget,
  blocked,
});

export function sqlMemberStore(
  database: SqlDatabase,
  passwords: PasswordHashing = MEMBER_PASSWORDS,
): MemberStore {
  const withCredentials = new SharedLookups<Member | null>();
  const find = async (email: string): Promise<Member | null> => {
    const [row] = await database.query<MemberRow>(`select ${COLUMNS} from members where email = $1`, [
      normaliseEmail(email),
    ]);
    return row === undefined ? null : toMember(row);
  };
  return {
    async save(email, password, { budget, admin }) {
      if (password === "") throw new Error("A member's password cannot be empty.");
      if (budget !== null && (!Number.isSafeInteger(budget) || budget < 0)) {
        throw new Error(`A budget is a whole number of data requests, 0 or more (not ${budget}).`);
      }
      const [row] = await database.query<MemberRow>(
        `insert into members (email, password_hash, admin, budget) values ($1, $2, $3, $4)
         on conflict (email) do update
           set password_hash = excluded.password_hash, admin = excluded.admin, budget = excluded.budget,
               credentials_id = gen_random_uuid()::text
         returning ${COLUMNS}`,
        [normaliseEmail(email), await passwords.hash(password), admin, budget],
      );
      if (row === undefined) throw new Error("The database did not return the member it saved.");
      return toMember(row);
    },
    async remove(email) {
      const rows = await database.query("delete from members where email = $1 returning email", [
        normaliseEmail(email),
      ]);
      return rows.length > 0;
    },
    async list() {
      const rows = await database.query<MemberRow>(`select ${COLUMNS} from members order by email`);
      return rows.map(toMember);
    },
    find,
    async credentials(email) {
      const [row] = await database.query<{ credentials_id: string }>(
        "select credentials_id from members where email = $1",
        [normaliseEmail(email)],
      );
      return row?.credentials_id ?? null;
    },
    // Every data request asks this (member-access.ts).
    findWithCredentials(email, credentials) {
      const normalised = normaliseEmail(email);
      return withCredentials.get(`${normalised}\n${credentials}`, async () => {
        const [row] = await database.query<MemberRow>(
          `select ${COLUMNS} from members where email = $1 and credentials_id = $2`,
          [normalised, credentials],
        );
        return row === undefined ? null : toMember(row);
      });
    },
    async verify(email, password) {
      const [row] = await database.query<MemberRow & { password_hash: string }>(
        `select ${COLUMNS}, password_hash from members where email = $1`,
        [normaliseEmail(email)],
      );
      if (row === undefined || row.password_hash === NO_PASSWORD) {
        await passwords.verifyNoMember(password);
        return null;
      }
      return (await passwords.verify(password, row.password_hash)) ? toMember(row) : null;
    },
    async ensure(email) {
      // Two instances seeing a new member's first token at once: one inserts, both read it.
      await database.query(
        `insert into members (email, password_hash, admin, budget) values ($1, $2, false, null)
         on conflict (email) do nothing`,
        [normaliseEmail(email), NO_PASSWORD],
      );
      const member = await find(email);
      if (member === null) throw new Error("The database did not return the member it added.");
      return member;
    },
    async setBlocked(email, blocked) {
      const rows = await database.query("update members set blocked = $2 where email = $1 returning email", [
        normaliseEmail(email),
        blocked,
      ]);
      return rows.length > 0;
    },
  };
}
