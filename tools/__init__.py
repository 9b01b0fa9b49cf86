"""Developer tooling of the PrivateUse1-for-torch.compile patch series (standard library only)."""
