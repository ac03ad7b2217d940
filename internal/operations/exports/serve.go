package exports

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// ServeRequest is `serve`.
type ServeRequest struct {
	Selector string
	Port     int // 0: any free port
	// Interval is how often the tree's files are looked at (default 1 s).
	Interval time.Duration
	// Ready is called once the site is served, with its first build.
	Ready func(contracts.ServeResult)
	// Rebuilt is called after each rebuild (err when it failed; the
	// previous site stays served).
	Rebuilt func(pages int, err error)
}

// Serve builds a tree's site into a private directory, serves it on
// 127.0.0.1 only, and rebuilds it whenever a file of the tree changes,
// until ctx ends; then it stops the server, removes the directory and
// returns nil. A signal that comes before the first build is served
// stops it the same way: git commands end with ctx, and their failure is
// the stop, not an error.
func Serve(ctx context.Context, env operations.Env, req ServeRequest) error {
	err := serve(ctx, env, req)
	if err != nil && ctx.Err() != nil {
		return nil
	}
	return err
}

func serve(ctx context.Context, env operations.Env, req ServeRequest) error {
	if req.Port < 0 || req.Port > 65535 {
		return contracts.Errorf(contracts.CodeUsage, "--port must be between 0 and 65535")
	}
	interval := req.Interval
	if interval <= 0 {
		interval = time.Second
	}
	_, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return err
	}
	t, err := openExportTarget(ctx, env, conns, req.Selector, "serve <selector>")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp(env.Abs(env.Vars.TempDir()), "git-context-tree-serve-")
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot create a directory for the site: %v", unwrapPath(err))
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "site")
	seen, seenHead := treeFingerprint(t.Root), servedHead(ctx, env, t)
	res, err := rebuildSite(ctx, env, t, out)
	if err != nil {
		return err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(req.Port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot listen on %s: %v", addr, err)
	}
	host := ln.Addr().String()
	srv := &http.Server{Handler: loopbackOnly(host, noStore(http.FileServer(http.Dir(out)))), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if req.Ready != nil {
		req.Ready(contracts.ServeResult{SchemaVersion: contracts.CLIVersion, URL: "http://" + host + "/", Tree: res.Tree, Pages: len(res.Pages)})
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(shut)
			return nil
		case err := <-served:
			return contracts.Errorf(contracts.CodeIO, "the server stopped: %v", err)
		case <-tick.C:
			now, head := treeFingerprint(t.Root), servedHead(ctx, env, t)
			if now == seen && head == seenHead {
				continue
			}
			seen, seenHead = now, head
			// A git source's snapshot is checked again before every
			// rebuild: one modified since serve opened it stops the
			// server (SNAPSHOT_CORRUPT) rather than show its content as
			// the synced commit's.
			if t.Snapshot != nil && t.Conn != nil {
				if err := env.Managed().CheckSnapshot(ctx, *t.Conn, t.Snapshot); err != nil {
					shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					defer cancel()
					_ = srv.Shutdown(shut)
					return err
				}
			}
			res, err := rebuildSite(ctx, env, t, out)
			if req.Rebuilt != nil {
				pages := 0
				if res != nil {
					pages = len(res.Pages)
				}
				req.Rebuilt(pages, err)
			}
		}
	}
}

// servedHead is the commit checked out where a directory tree lives, so a
// commit that changes no file of the tree still updates the footer's
// commit and state ("" outside git; a git source's snapshot never moves).
func servedHead(ctx context.Context, env operations.Env, t operations.TreeTarget) string {
	if t.Snapshot != nil {
		return ""
	}
	head, _ := env.Git.Head(ctx, git.Isolated, t.Root)
	return head
}

// rebuildSite writes the site to out, replacing the previous build.
func rebuildSite(ctx context.Context, env operations.Env, t operations.TreeTarget, out string) (*contracts.ExportSiteResult, error) {
	site, res, err := buildSite(ctx, env, t, "")
	if err != nil {
		return nil, err
	}
	_, bytes, err := writeSite(out, site, holdImages(ctx, env, t))
	if err != nil {
		return nil, err
	}
	res.OutputDir, res.Bytes = out, bytes
	return res, nil
}

// treeFingerprint sums the name, size, mode and time of every content
// entry under root (infrastructure is not walked, nothing is followed):
// a change of any of them means the site may differ.
func treeFingerprint(root string) uint64 {
	h := fnv.New64a()
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(h, "error %s\n", p)
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel != "." && tree.ClassOf(filepath.ToSlash(rel)) == contracts.ClassInfrastructure {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		fmt.Fprintf(h, "%s\x00%d\x00%o\x00%d\n", rel, fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
		return nil
	})
	return h.Sum64()
}

// loopbackOnly answers only requests addressed to the server's own
// loopback address or localhost, so a web page elsewhere cannot reach the
// preview through a DNS name that resolves to 127.0.0.1.
func loopbackOnly(host string, next http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(host)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host != host && r.Host != "localhost:"+port {
			http.Error(w, "this preview answers only on "+host, http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// noStore keeps browsers from caching pages a rebuild replaces.
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
