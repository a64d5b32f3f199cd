// Branded object names for the values that cross layers (core ↔ ports ↔ adapters): a NodeClaim's name and a
// NodePool's name are both strings, and the type system keeps one from being passed as the other.
export type NodeClaimName = string & { readonly __brand: 'NodeClaimName' };
export type NodePoolName = string & { readonly __brand: 'NodePoolName' };

/** Brands a name read from a NodeClaim's metadata, a tag or a label (the caller vouches for its source). */
export const nodeClaimName = (name: string): NodeClaimName => name as NodeClaimName;
export const nodePoolName = (name: string): NodePoolName => name as NodePoolName;

/** A NodeClaim's own name, branded. */
export const claimName = (claim: { readonly metadata: { readonly name: string } }): NodeClaimName =>
  nodeClaimName(claim.metadata.name);
