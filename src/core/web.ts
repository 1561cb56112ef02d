/**
 * `webFetch` of the user's settings file, as a prompt carries it to its `web_fetch` calls. Only the
 * user's file counts: a workspace must not open the user's private network to the model.
 */
export interface WebSettings {
  /** Let `web_fetch` reach loopback, private and link-local addresses (default false). */
  allowPrivateAddresses?: boolean;
}
