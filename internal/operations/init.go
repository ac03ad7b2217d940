package operations

import (
	"context"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// InitRequest is what `init` was asked to do.
type InitRequest struct {
	Dir       string // default: the command's directory
	Title     string // default: from the directory name
	NoConnect bool   // write the tree only, without declaring it
}

// Init makes a directory a declared tree. It writes a root NODE.md when
// the directory has none (an index of its content when it has some), or
// adopts the NODE.md it has, declares the tree in the project
// configuration, and verifies it: an adopted folder's findings are
// reported, not refused, and `fix` repairs what it can. The tree is
// written while the configuration lock is held, and removed again if
// declaring it fails. An existing NODE.md with --title or --no-connect
// is refused (TREE_EXISTS): init never overwrites a tree, and would have
// nothing to do. The next steps of a declared tree end before git's: the
// caller appends hooks.GitSteps (stage, install the hook, commit), which
// the core cannot import.
func Init(ctx context.Context, env Env, req InitRequest) (*contracts.InitResult, error) {
	abs := env.Abs(cmpOrDir(req.Dir, env.Dir))
	title := req.Title
	if title == "" {
		title = tree.DefaultTitle(abs)
	}
	exists := tree.IsTreeRoot(abs)
	if exists && (req.NoConnect || req.Title != "") {
		name := filepath.Join(abs, tree.NodeFile)
		return nil, contracts.Errorf(contracts.CodeTreeExists,
			"%s already exists; init never overwrites a tree (without --title and --no-connect, init declares it as it is)", name).
			WithDetails(map[string]any{"path": name})
	}
	if !exists && req.Dir == "" {
		if err := refuseCodeRoot(ctx, env, abs); err != nil {
			return nil, err
		}
	}
	if req.NoConnect {
		root, err := tree.Scaffold(abs, title)
		if err != nil {
			return nil, err
		}
		return initResult(env, root, title, false, true), nil
	}
	p, _, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	firstMissing := missingAncestor(abs)
	var root string
	created := false
	_, err = p.UpdateConfig(env.ConfigLockWait(), func(cfg *contracts.Config) (bool, error) {
		if exists {
			if root, err = tree.OpenRoot(abs); err != nil {
				return false, err
			}
		} else {
			if root, err = tree.Scaffold(abs, title); err != nil {
				return false, err
			}
			created = true
		}
		src, err := directorySource(p, env, nil, ConnectRequest{Target: root, AllowInvalid: true})
		if err != nil {
			return false, err
		}
		want := sources.NewConnection(p.Root, src)
		for _, s := range cfg.Trees {
			if sources.NewConnection(p.Root, s).Identity == want.Identity {
				return false, nil
			}
		}
		cfg.Trees = append(cfg.Trees, src)
		return true, nil
	})
	if err != nil {
		if created {
			undoScaffold(root, firstMissing)
		}
		return nil, err
	}
	if !created {
		title = ""
	}
	return initResult(env, root, title, true, created), nil
}

func cmpOrDir(dir, def string) string {
	if dir == "" {
		return def
	}
	return dir
}

// initResult verifies the tree init left and says what to run next; for a
// declared tree, the git steps (hooks.GitSteps) are the caller's to add.
func initResult(env Env, root, title string, connected, created bool) *contracts.InitResult {
	rep := tree.Verify(root)
	res := &contracts.InitResult{SchemaVersion: contracts.CLIVersion, Root: root,
		Document: filepath.Join(root, tree.NodeFile), Title: title, Connected: connected, Created: created,
		OK: rep.OK(), Findings: rep.Findings, Scanned: rep.Scanned, Next: []contracts.NextStep{}}
	if !rep.OK() {
		dir := ShellWord(DisplayPath(env, root))
		res.Next = append(res.Next,
			contracts.NextStep{Command: "git context-tree fix " + dir, Reason: "show the repairs fix can make"},
			contracts.NextStep{Command: "git context-tree fix " + dir + " --write", Reason: "make them; fix lists what it cannot repair"})
	}
	if !created {
		// An adopted folder's links were written for another tool: say
		// which name nothing (opt-in findings, outside the tree's validity).
		if links := linkFindings(root); links > 0 {
			res.LinkFindings = links
			res.Next = append(res.Next, contracts.NextStep{Command: "git context-tree verify --links " + ShellWord(DisplayPath(env, root)),
				Reason: "in the adopted documents, " + brokenLinks(links)})
		}
	}
	if !connected {
		res.Next = append(res.Next, contracts.NextStep{Command: "git context-tree connect " + ShellWord(DisplayPath(env, root)),
			Reason: "declare it when it is ready: verify, the hook and agents find declared trees"})
	}
	return res
}

// missingAncestor returns the outermost directory of dir that does not
// exist yet ("" when dir exists): what scaffolding will create.
func missingAncestor(dir string) string {
	missing := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			return missing
		}
		missing = d
	}
}

// undoScaffold removes the NODE.md init wrote and the directories it
// created for it, only while they are empty.
func undoScaffold(root, firstMissing string) {
	os.Remove(filepath.Join(root, tree.NodeFile))
	if firstMissing == "" {
		return
	}
	for d := root; ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == firstMissing || d == filepath.Dir(d) {
			return
		}
	}
}
