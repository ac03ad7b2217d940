package export

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Differences lists how the envelope in old (context.json's bytes) differs
// from fresh in what the trees say: profile, sections, trees and the
// key-file manifest with its bodies. Facts that change with every commit
// or run are not compared: timestamps, git_sha, the tool's version, the
// trees' commits and dirtiness, and gitState (a committed envelope was
// necessarily written before its own commit). None means it is fresh.
func Differences(old []byte, fresh contracts.CtxfileEnvelope) []string {
	var prev contracts.CtxfileEnvelope
	if err := json.Unmarshal(old, &prev); err != nil {
		return []string{fmt.Sprintf("context.json is not a ctxfile envelope: %v", err)}
	}
	var diffs []string
	if prev.CtxfileSchema != fresh.CtxfileSchema {
		diffs = append(diffs, fmt.Sprintf("ctxfile_schema is %q, not %q", prev.CtxfileSchema, fresh.CtxfileSchema))
	}
	if prev.Profile != fresh.Profile {
		diffs = append(diffs, fmt.Sprintf("profile is %q, not %q", prev.Profile, fresh.Profile))
	}
	if prev.RootName != fresh.RootName {
		diffs = append(diffs, fmt.Sprintf("root_name is %q, not %q", prev.RootName, fresh.RootName))
	}
	if !slices.Equal(prev.Sections, fresh.Sections) {
		diffs = append(diffs, fmt.Sprintf("sections are %v, not %v", prev.Sections, fresh.Sections))
	}
	if !reflect.DeepEqual(stableTrees(prev.Context.Meta.Trees), stableTrees(fresh.Context.Meta.Trees)) {
		diffs = append(diffs, "context.meta.trees differ")
	}
	return append(diffs, keyFileDifferences(prev.Context.KeyFiles, fresh.Context.KeyFiles)...)
}

func stableTrees(ts []contracts.CtxfileTree) []contracts.CtxfileTree {
	out := make([]contracts.CtxfileTree, len(ts))
	for i, t := range ts {
		t.Commit, t.Dirty = "", nil
		out[i] = t
	}
	return out
}

// keyFileDifferences names each document added, removed or changed.
func keyFileDifferences(prev, fresh []contracts.CtxfileKeyFile) []string {
	if reflect.DeepEqual(prev, fresh) {
		return nil
	}
	key := func(k contracts.CtxfileKeyFile) string { return k.Tree + "\x00" + k.Path }
	old := make(map[string]contracts.CtxfileKeyFile, len(prev))
	for _, k := range prev {
		old[key(k)] = k
	}
	var diffs []string
	seen := make(map[string]bool, len(fresh))
	for _, k := range fresh {
		seen[key(k)] = true
		p, ok := old[key(k)]
		switch {
		case !ok:
			diffs = append(diffs, "keyFiles: "+k.Path+" is missing")
		case !reflect.DeepEqual(p, k):
			diffs = append(diffs, "keyFiles: "+k.Path+" has changed")
		}
	}
	for _, k := range prev {
		if !seen[key(k)] {
			diffs = append(diffs, "keyFiles: "+k.Path+" is no longer in the tree")
		}
	}
	if len(diffs) == 0 && len(prev) == len(fresh) {
		for i := range prev {
			if key(prev[i]) != key(fresh[i]) {
				return []string{"keyFiles are in another order"}
			}
		}
	}
	return diffs
}

// OnlyTimesDiffer reports whether old is exactly what this tool would
// write for fresh but for generated_at and snapshot_generated_at, so
// rewriting it would change nothing but the time it was written. Old must
// be in this tool's own layout: an envelope edited by hand is rewritten.
func OnlyTimesDiffer(old []byte, fresh contracts.CtxfileEnvelope) bool {
	var prev contracts.CtxfileEnvelope
	if json.Unmarshal(old, &prev) != nil {
		return false
	}
	if again, err := MarshalEnvelope(prev); err != nil || string(again) != string(old) {
		return false
	}
	fresh.GeneratedAt, fresh.SnapshotGeneratedAt = prev.GeneratedAt, prev.SnapshotGeneratedAt
	b, err := MarshalEnvelope(fresh)
	return err == nil && string(b) == string(old)
}
