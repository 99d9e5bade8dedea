// A team gateway refusing a member on its own account (not the service's refusal passed on)
// says why in this header, so the add-in tells it apart from a wrong password at any sign-in,
// the first included (docs/gateway.md). A token service's own text is never shown (it may echo
// the password); this header is the gateway's word, not text.

/** The header a team gateway sets on a refusal of its own: its value names the cause. */
export const GATEWAY_REFUSAL_HEADER = "pcd-gateway-refusal";

/** The value for a member the gateway's administrator blocked. */
export const MEMBER_BLOCKED = "member-blocked";

/** True when the header says the gateway blocked the member. */
export function memberBlocked(value: string | null): boolean {
  return value?.trim() === MEMBER_BLOCKED;
}
