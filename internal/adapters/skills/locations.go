package skills

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Location names: the skills directories the product manages.
const (
	// LocationClaude is Claude Code's skills directory (Cursor reads
	// ~/.claude/skills too).
	LocationClaude = "claude"
	// LocationAgents is the shared ~/.agents/skills of Codex, Copilot,
	// Gemini CLI, OpenCode and Pi.
	LocationAgents = "agents"
	// LocationCursor is ~/.cursor/skills.
	LocationCursor = "cursor"
)

// agentsHosts read the shared agents directory.
var agentsHosts = []string{HostCodex, HostCopilot, HostGemini, HostOpenCode, HostPi}

// Location is one skills directory: Anchor is an existing real directory
// (the home directory, a project, or a directory named by a host's
// environment variable) and Rel the segments below it, each of which must
// be a real directory (no symlink) or missing.
type Location struct {
	Name  string
	Hosts []string // the hosts that read it
	// Anchor and Rel make the directory; see Dir.
	Anchor string
	Rel    []string
	// Install is false for a directory only listed and uninstalled (Cursor's
	// own directory when Cursor reads Claude Code's).
	Install bool
}

// Dir is the skills directory.
func (l Location) Dir() string {
	return filepath.Join(append([]string{l.Anchor}, l.Rel...)...)
}

// Skip is a host that gets no skills, with the reason.
type Skip struct {
	Host   string
	Reason string
}

// Global returns the skills directories of the detected hosts among only
// (every host when only is empty) and the hosts skipped. Claude Code gets
// its own directory; the hosts of the shared agents directory share one
// location; Cursor gets ~/.cursor/skills only when ~/.claude does not exist
// (it reads ~/.claude/skills otherwise).
func Global(env Environment, only []string) ([]Location, []Skip, error) {
	if env.Home == "" {
		return nil, nil, contracts.Errorf(contracts.CodeSkillsHomeUnknown, "HOME is not set: cannot find the coding agents' directories (use --project <dir>)")
	}
	home, err := realDir(env.Home)
	if err != nil {
		return nil, nil, contracts.Errorf(contracts.CodeSkillsHomeUnknown, "HOME (%s) is not a directory: %v", env.Home, err)
	}
	det := map[string]Detection{}
	for _, h := range Hosts {
		if len(only) == 0 || slices.Contains(only, h) {
			det[h] = Detect(env, h)
		}
	}
	var locs []Location
	var skips []Skip
	skip := func(d Detection) { skips = append(skips, Skip{Host: d.Host, Reason: d.Reason}) }

	claudeAt := -1
	if d, ok := det[HostClaude]; ok {
		l := Location{Name: LocationClaude, Hosts: []string{HostClaude}, Anchor: home, Rel: []string{".claude", "skills"}, Install: true}
		if d.Detected && env.getenv("CLAUDE_CONFIG_DIR") != "" {
			l.Anchor, l.Rel = d.Dir, []string{"skills"}
			if l.Anchor, err = realDir(d.Dir); err != nil {
				d.Detected, d.Reason = false, "not detected: "+err.Error()
			}
		}
		if d.Detected {
			claudeAt = len(locs)
			locs = append(locs, l)
		} else {
			skip(d)
		}
	}

	agents := Location{Name: LocationAgents, Anchor: home, Rel: []string{".agents", "skills"}, Install: true}
	for _, h := range agentsHosts {
		if d, ok := det[h]; ok && d.Detected {
			agents.Hosts = append(agents.Hosts, h)
		} else if ok {
			skip(d)
		}
	}
	if len(agents.Hosts) > 0 {
		locs = append(locs, agents)
	}

	if d, ok := det[HostCursor]; ok {
		cursor := Location{Name: LocationCursor, Hosts: []string{HostCursor}, Anchor: home, Rel: []string{".cursor", "skills"}, Install: true}
		_, claudeErr := os.Lstat(filepath.Join(home, ".claude"))
		switch {
		case !d.Detected:
			skip(d)
		case claudeErr != nil:
			locs = append(locs, cursor)
		default:
			// Cursor reads ~/.claude/skills: installing into both would show
			// every skill twice. Its own directory is still listed and
			// uninstalled when it exists.
			if claudeAt >= 0 && locs[claudeAt].Dir() == filepath.Join(home, ".claude", "skills") {
				locs[claudeAt].Hosts = append(locs[claudeAt].Hosts, HostCursor)
			} else {
				skips = append(skips, Skip{Host: HostCursor, Reason: "Cursor reads ~/.claude/skills and ~/.claude exists: install for claude to serve Cursor"})
			}
			if _, err := os.Lstat(cursor.Dir()); err == nil {
				cursor.Install = false
				locs = append(locs, cursor)
			}
		}
	}
	slices.SortStableFunc(skips, func(a, b Skip) int {
		return slices.Index(Hosts, a.Host) - slices.Index(Hosts, b.Host)
	})
	return locs, skips, nil
}

// Project returns a project's skills directories, <dir>/.claude/skills
// (Claude Code and Cursor) and <dir>/.agents/skills (the other hosts),
// restricted to the locations read by a host in only (all when empty).
func Project(dir string, only []string) ([]Location, error) {
	anchor, err := realDir(dir)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeUsage, "--project %s is not a directory", dir)
	}
	var locs []Location
	for _, l := range []Location{
		{Name: LocationClaude, Hosts: []string{HostClaude, HostCursor}, Rel: []string{".claude", "skills"}},
		{Name: LocationAgents, Hosts: agentsHosts, Rel: []string{".agents", "skills"}},
	} {
		var hosts []string
		for _, h := range l.Hosts {
			if len(only) == 0 || slices.Contains(only, h) {
				hosts = append(hosts, h)
			}
		}
		if len(hosts) > 0 {
			l.Hosts, l.Anchor, l.Install = hosts, anchor, true
			locs = append(locs, l)
		}
	}
	return locs, nil
}

// realDir resolves dir's symlinks and requires a directory.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", &os.PathError{Op: "open", Path: dir, Err: errNotDir}
	}
	return real, nil
}
