// Package mcp is the read-only Model Context Protocol server of `git
// context-tree mcp`: the tools list_trees, read_node, outline, search,
// verify and resolve, and every node as a resource, over the official Go
// SDK. It is presentation, like internal/cli: every tool calls
// internal/operations (which applies the tree's containment, symlink and
// content-class rules, and reads git sources from snapshots only) and
// pages the result. Nothing here writes.
package mcp

import (
	"context"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree/search"
)

// server holds what lives as long as the process: the environment every
// operation runs with, and the search indexes.
type server struct {
	env     operations.Env
	indexes search.Cache
}

const instructions = `Context Trees: Markdown knowledge rooted at NODE.md, declared in the project's .context-tree.json.
Start with list_trees or outline, find with search, read with read_node (a directory and its NODE.md are one node);
cited_by tells which documents explain a code file.
Every result names the tree's selector, commit (head) and whether it has uncommitted changes (dirty). Read-only.`

// New returns the MCP server for env, with every tool and the node
// resources registered.
func New(env operations.Env, version string) (*sdk.Server, error) {
	if env.Resolved == nil {
		// The server lives as long as the host's session: what git says
		// about a checkout is kept until the checkout changes, so a warm
		// read does not run git status over the whole tree.
		env.Resolved = sources.NewResolveCache()
	}
	s := &server{env: env}
	srv := sdk.NewServer(&sdk.Implementation{Name: "git-context-tree", Title: "Context Trees", Version: version},
		&sdk.ServerOptions{Instructions: instructions, Capabilities: &sdk.ServerCapabilities{}})
	tools := []func(*sdk.Server) error{
		s.addListTrees, s.addReadNode, s.addOutline, s.addSearch, s.addVerify, s.addResolve, s.addCitedBy,
	}
	for _, add := range tools {
		if err := add(srv); err != nil {
			return nil, err
		}
	}
	s.addResources(srv)
	return srv, nil
}

// withResolveCache gives a server that runs for a host's session a cache
// of what git says about checkouts (unless env has one), and its closing.
func withResolveCache(env operations.Env) (operations.Env, func()) {
	if env.Resolved != nil {
		return env, func() {}
	}
	env.Resolved = sources.NewResolveCache()
	return env, env.Resolved.Close
}

// Serve runs the server over stdio (newline-delimited JSON-RPC on in and
// out) until the client closes its end or ctx is cancelled (SIGTERM).
// Malformed input is answered with JSON-RPC errors and never ends it.
func Serve(ctx context.Context, env operations.Env, version string, in io.Reader, out io.WriteCloser) error {
	env, done := withResolveCache(env)
	defer done()
	srv, err := New(env, version)
	if err != nil {
		return err
	}
	w := &lockedWriter{w: out}
	err = srv.Run(ctx, &sdk.IOTransport{Reader: guardInput(in, w), Writer: w})
	if ctx.Err() != nil {
		return nil // a signal is a clean stop
	}
	return err
}
