// Package evidence is what git says about the sources documents cite:
// `verify --evidence` (each cited file and line range still there, its
// digest unchanged), `evidence stamp` (record a citation's commit and
// digest) and `drift` (the commits since a citation's stamp that changed
// its lines), over the project's repository and synced git sources. It
// opens trees through internal/operations, which never imports it; the
// git-free range and digest logic it uses is internal/evidence (imported
// under its own name, evidence).
package evidence
