package hostconfig

// The agent-host hook (issue 30): a PostToolUse entry in Claude Code's
// settings that runs `git context-tree cites --hook claude-code` after a
// file is read or edited. Only our own hook object is ever added, changed
// or removed; every other key, hook and group keeps its place and value.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// ReadHook is the hook's settings for Claude Code: the tools it follows
// and the command it runs.
const (
	ReadHookEvent   = "PostToolUse"
	ReadHookMatcher = "Read|Edit|MultiEdit"
	ReadHookCommand = "git context-tree cites --hook claude-code"
	ReadHookTimeout = 10 // seconds; the hook answers in milliseconds
	// readHookPrefix recognises our hook from any version (another
	// matcher, flags added later).
	readHookPrefix = "git context-tree cites --hook"
)

// ReadHookSettings is the file the hook lives in: the project's shared
// .claude/settings.json, or the user's settings (CLAUDE_CONFIG_DIR, else
// ~/.claude).
func ReadHookSettings(project, home string, getenv func(string) string) string {
	if project != "" {
		return filepath.Join(project, ".claude", "settings.json")
	}
	if dir := getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, "settings.json")
	}
	return filepath.Join(home, ".claude", "settings.json")
}

// InspectReadHook says whether the settings file holds our hook as
// InstallReadHook leaves it: NoFile, Absent, Current, Differs or Invalid.
func InspectReadHook(file string) (string, error) {
	data, err := os.ReadFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return NoFile, nil
	case err != nil:
		return Invalid, err
	}
	_, changed, err := editReadHook(data, true)
	switch {
	case err != nil:
		return Invalid, err
	case !changed:
		return Current, nil
	}
	if _, present, _ := editReadHook(data, false); present {
		return Differs, nil
	}
	return Absent, nil
}

// InstallReadHook adds or updates our hook in file; changed is false when
// it already is ours exactly.
func InstallReadHook(file string) (changed bool, err error) {
	return rewriteSettings(file, true)
}

// UninstallReadHook removes our hook from file (and a group or list it
// leaves empty); changed is false when it was not there.
func UninstallReadHook(file string) (changed bool, err error) {
	return rewriteSettings(file, false)
}

func rewriteSettings(file string, install bool) (bool, error) {
	if err := refuseSymlinks(file); err != nil {
		return false, err
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) && !install {
		return false, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, err)
	}
	out, changed, err := editReadHook(data, install)
	if err != nil {
		return false, contracts.Errorf(contracts.CodeHostConfigInvalid, "cannot edit the hooks of %s: %v; nothing was changed", file, err).
			WithDetails(map[string]any{"file": file})
	}
	if !changed {
		return false, nil
	}
	return true, replaceFile(file, out)
}

// refuseSymlinks refuses a configuration file that is a symlink or lies in
// a symlinked directory (.claude, .cursor): a committed link could point
// the write anywhere, such as the user's git configuration.
func refuseSymlinks(file string) error {
	for _, p := range []string{file, filepath.Dir(file)} {
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return contracts.Errorf(contracts.CodeHostConfigInvalid, "%s is a symbolic link; nothing is ever written through one (edit the file it points to by hand, or replace the link)", p).
				WithDetails(map[string]any{"file": file})
		}
	}
	return nil
}

// editReadHook adds (install) or removes our hook in a settings document
// (nil or empty: none yet).
func editReadHook(data []byte, install bool) (out []byte, changed bool, err error) {
	var top []member
	if len(bytes.TrimSpace(data)) > 0 {
		if top, err = parseObject(data); err != nil {
			return nil, false, err
		}
	}
	hooksAt := slices.IndexFunc(top, func(m member) bool { return m.key == "hooks" })
	var events []member
	if hooksAt >= 0 {
		if events, err = parseObject(top[hooksAt].value); err != nil {
			return nil, false, fmt.Errorf("hooks: %w", err)
		}
	}
	eventAt := slices.IndexFunc(events, func(m member) bool { return m.key == ReadHookEvent })
	var groups []json.RawMessage
	if eventAt >= 0 {
		if err := json.Unmarshal(events[eventAt].value, &groups); err != nil {
			return nil, false, fmt.Errorf("hooks.%s must be a list: %w", ReadHookEvent, err)
		}
	}
	kept, found, current, err := withoutOurs(groups)
	if err != nil {
		return nil, false, fmt.Errorf("hooks.%s: %w", ReadHookEvent, err)
	}
	switch {
	case install && found == 1 && current:
		return data, false, nil
	case !install && found == 0:
		return data, false, nil
	}
	if install {
		g, _ := json.Marshal(map[string]any{"matcher": ReadHookMatcher, "hooks": []any{map[string]any{"type": "command", "command": ReadHookCommand, "timeout": ReadHookTimeout}}})
		kept = append(kept, g)
	}
	// Put the lists back, dropping those our removal emptied.
	switch {
	case len(kept) > 0:
		list, _ := json.Marshal(kept)
		events = upsertMember(events, ReadHookEvent, list)
	case eventAt >= 0:
		events = slices.Delete(events, eventAt, eventAt+1)
	}
	switch {
	case len(events) > 0:
		obj, err := renderObject(events, "")
		if err != nil {
			return nil, false, err
		}
		top = upsertMember(top, "hooks", obj)
	case hooksAt >= 0:
		top = slices.Delete(top, hooksAt, hooksAt+1)
	}
	out, err = renderObject(top, "")
	if err != nil {
		return nil, false, err
	}
	return append(out, '\n'), true, nil
}

// withoutOurs removes our hook object from every matcher group (a group
// left without hooks is dropped) and says how many were found and
// whether the one found is in its own group exactly as installed.
func withoutOurs(groups []json.RawMessage) (kept []json.RawMessage, found int, current bool, err error) {
	for _, raw := range groups {
		var g struct {
			Matcher *string           `json:"matcher"`
			Hooks   []json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(raw, &g) != nil {
			kept = append(kept, raw) // not a group we understand: not ours
			continue
		}
		var others []json.RawMessage
		for _, h := range g.Hooks {
			var hook struct {
				Command string `json:"command"`
				Timeout any    `json:"timeout"`
			}
			if json.Unmarshal(h, &hook) == nil && strings.HasPrefix(hook.Command, readHookPrefix) {
				found++
				current = len(g.Hooks) == 1 && g.Matcher != nil && *g.Matcher == ReadHookMatcher &&
					hook.Command == ReadHookCommand && hook.Timeout == float64(ReadHookTimeout)
				continue
			}
			others = append(others, h)
		}
		switch {
		case len(others) == len(g.Hooks):
			kept = append(kept, raw)
		case len(others) > 0:
			ms, err := parseObject(raw)
			if err != nil {
				return nil, 0, false, err
			}
			list, _ := json.Marshal(others)
			obj, err := renderObject(upsertMember(ms, "hooks", list), "")
			if err != nil {
				return nil, 0, false, err
			}
			kept = append(kept, obj)
		}
	}
	return kept, found, current, nil
}

// upsertMember sets key to value, in place or at the end.
func upsertMember(ms []member, key string, value json.RawMessage) []member {
	if i := slices.IndexFunc(ms, func(m member) bool { return m.key == key }); i >= 0 {
		ms[i].value = value
		return ms
	}
	return append(ms, member{key, value})
}
