// Package exports is what a tree is published as: `export ctxfile` (the
// project's .ctxfile envelope), `export llms` (llms.txt and llms-full.txt),
// `export site` (the static site) and `serve` (the site on loopback,
// rebuilt as the tree changes). It chooses and opens the trees through
// internal/operations, which never imports it, and renders them with
// internal/export.
package exports
