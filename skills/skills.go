// Package skills is the source of the agent skills that `git context-tree
// skills install` copies into coding agents' skill directories: one
// directory context-tree-<name> per skill, holding a SKILL.md in the Agent
// Skills format. It lives at the repository root so that the repository
// itself is a skills source for other installers (`npx skills add <repo>`
// discovers skills/<name>/SKILL.md); the binary embeds the same files from
// here, so there is exactly one copy. It is not an API: the files are read
// through internal/adapters/skills, which stamps metadata.version.
package skills

import "embed"

// Files holds every context-tree-* skill directory and its files.
//
//go:embed context-tree-*
var Files embed.FS
