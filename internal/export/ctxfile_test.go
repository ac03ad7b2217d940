package export

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/schematest"
)

func envelopeInput(t *testing.T, profile string) CtxfileInput {
	t.Helper()
	c := counter(t, "")
	dirty := false
	branch := "main"
	ahead, behind := 2, 0
	sections, err := Sections(profile, []string{"keyFiles", "plan"}, true)
	if err != nil {
		t.Fatal(err)
	}
	return CtxfileInput{
		Profile: profile, Sections: sections, ToolVersion: "1.2.3", Encoding: c.Encoding,
		GeneratedAt: time.Date(2026, 7, 10, 18, 0, 0, 0, time.UTC), SnapshotAt: time.Date(2026, 7, 10, 17, 59, 58, 412e6, time.UTC),
		GitSHA: "736fc31c691be62121b2bd1636b234e9958ea9f3", RootName: "my-project",
		Trees: []CtxfileTree{{
			Meta:   contracts.CtxfileTree{Selector: "context", Path: "docs/context", Title: "Handbook", Commit: "736fc31c691be62121b2bd1636b234e9958ea9f3", Dirty: &dirty},
			Prefix: "docs/context",
			Docs:   sample(t, c),
		}},
		GitState: &contracts.CtxfileGitState{Branch: &branch, Head: "736fc31c691be62121b2bd1636b234e9958ea9f3", Upstream: "origin/main", Ahead: ahead, Behind: behind,
			Staged: []string{}, Modified: []string{"src/a.go"}, Untracked: []string{}, DiffSummary: "1 file changed, 1 insertion(+)",
			Commits: []contracts.CtxfileCommit{{Hash: "736fc31c691be62121b2bd1636b234e9958ea9f3", Message: "Ship it", Author: "Ada", Date: "2026-07-10T17:00:00Z"}}},
	}
}

func TestEnvelope(t *testing.T) {
	env := Envelope(envelopeInput(t, contracts.ProfileRepoSafe))
	data, err := MarshalEnvelope(env)
	if err != nil {
		t.Fatal(err)
	}
	head := `{
  "ctxfile_schema": "1",
  "ctxfile_version": "1.2.3",
  "profile": "repo-safe",
  "generated_at": "2026-07-10T18:00:00.000Z",
  "snapshot_generated_at": "2026-07-10T17:59:58.412Z",
  "git_sha": "736fc31c691be62121b2bd1636b234e9958ea9f3",
  "root_name": "my-project",
  "sections": [
    "plan",
    "gitState",
    "keyFiles"
  ],
  "context": {
    "meta": {
      "tool": "git-context-tree",
`
	if !strings.HasPrefix(string(data), head) {
		t.Errorf("context.json begins:\n%s\nwant:\n%s", data[:min(len(data), len(head))], head)
	}
	var got []string
	for _, k := range env.Context.KeyFiles {
		got = append(got, k.Path)
		if k.Content != nil {
			t.Errorf("repo-safe envelope carries the body of %s", k.Path)
		}
	}
	want := []string{"docs/context/NODE.md", "docs/context/glossary.md", "docs/context/arch/NODE.md", "docs/context/arch/deep/NODE.md",
		"docs/context/arch/my layers.md", "docs/context/zeta/NODE.md", "docs/context/members/NODE.md", "docs/context/members/ada/NODE.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keyFiles (-want +got):\n%s", diff)
	}
	if m := env.Context.Meta.Trees[0]; m.Documents != 8 || m.Tokens == 0 {
		t.Errorf("meta.trees[0] = %+v", m)
	}
}

func TestEnvelopesMatchTheSchema(t *testing.T) {
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, profile := range []string{contracts.ProfileRepoSafe, contracts.ProfileFull, contracts.ProfileCustom} {
		in := envelopeInput(t, profile)
		for _, inGit := range []bool{true, false} {
			if !inGit {
				in.GitSHA, in.GitState = "", nil
				in.Sections, _ = Sections(profile, []string{"keyFiles"}, false)
			}
			data, err := MarshalEnvelope(Envelope(in))
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Validate("ctxfile", data); err != nil {
				t.Errorf("%s, in git %v: %v\n%s", profile, inGit, err, data)
			}
		}
	}
	// The schema is not a formality: a body under repo-safe, an absolute
	// path or an absent section it lists are invalid.
	env := Envelope(envelopeInput(t, contracts.ProfileRepoSafe))
	body := "secret notes"
	env.Context.KeyFiles[0].Content = &body
	mustFail(t, v, env, "a body under repo-safe")
	env = Envelope(envelopeInput(t, contracts.ProfileRepoSafe))
	env.Context.KeyFiles[0].Path = "/home/me/project/docs/NODE.md"
	mustFail(t, v, env, "an absolute path")
	env = Envelope(envelopeInput(t, contracts.ProfileRepoSafe))
	env.Context.GitState = nil
	mustFail(t, v, env, "a listed section missing")
}

func mustFail(t *testing.T, v *schematest.Validator, env contracts.CtxfileEnvelope, what string) {
	t.Helper()
	data, err := MarshalEnvelope(env)
	if err != nil {
		t.Fatal(err)
	}
	if v.Validate("ctxfile", data) == nil {
		t.Errorf("the ctxfile schema accepts %s", what)
	}
}

func TestSections(t *testing.T) {
	for _, tc := range []struct {
		profile string
		include []string
		inGit   bool
		want    []string
	}{
		{contracts.ProfileRepoSafe, nil, true, []string{"plan", "gitState", "keyFiles"}},
		{contracts.ProfileRepoSafe, nil, false, []string{"plan", "keyFiles"}},
		{contracts.ProfileFull, nil, false, []string{"plan", "keyFiles", "keyFileContent", "notionPages", "sessionSummary"}},
		{contracts.ProfileCustom, []string{"keyFiles", "plan"}, true, []string{"plan", "keyFiles"}},
		{contracts.ProfileCustom, []string{"gitState"}, true, []string{"gitState"}},
		{contracts.ProfileCustom, []string{"gitState"}, false, []string{}},
		{contracts.ProfileCustom, []string{}, true, []string{}},
	} {
		got, err := Sections(tc.profile, tc.include, tc.inGit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Sections(%s, %v, %v) (-want +got):\n%s", tc.profile, tc.include, tc.inGit, diff)
		}
	}
	if _, err := Sections(contracts.ProfileCustom, []string{"bodies"}, true); err == nil {
		t.Error("an unknown section was accepted")
	}
}

func TestFullProfileCarriesBodies(t *testing.T) {
	env := Envelope(envelopeInput(t, contracts.ProfileFull))
	k := env.Context.KeyFiles[4]
	if k.Path != "docs/context/arch/my layers.md" || k.Content == nil || *k.Content != "# Layers\n\nOne way.\n" {
		t.Fatalf("keyFiles[4] = %+v", k)
	}
	md := RenderContextMD(env)
	if !strings.HasPrefix(md, DerivedNotice+"\n") || !strings.Contains(md, "```markdown\n# Layers\n\nOne way.\n```\n") {
		t.Errorf("context.md:\n%s", md)
	}
}

func TestDifferences(t *testing.T) {
	in := envelopeInput(t, contracts.ProfileRepoSafe)
	old, err := MarshalEnvelope(Envelope(in))
	if err != nil {
		t.Fatal(err)
	}
	// A later run, at a later commit, on another branch: still fresh.
	later := in
	later.GeneratedAt = later.GeneratedAt.Add(time.Hour)
	later.GitSHA = "1111111111111111111111111111111111111111"
	later.GitState = &contracts.CtxfileGitState{Dirty: true}
	later.Trees = []CtxfileTree{in.Trees[0]}
	later.Trees[0].Meta.Commit = later.GitSHA
	if d := Differences(old, Envelope(later)); len(d) != 0 {
		t.Errorf("only volatile facts changed, yet: %v", d)
	}
	if OnlyTimesDiffer(old, Envelope(later)) {
		t.Error("OnlyTimesDiffer ignores git_sha")
	}
	sameButTime := in
	sameButTime.GeneratedAt = sameButTime.GeneratedAt.Add(time.Hour)
	if !OnlyTimesDiffer(old, Envelope(sameButTime)) {
		t.Error("OnlyTimesDiffer: only generated_at changed")
	}
	// An edited, an added and a removed document.
	edited := in
	docs := append([]Document(nil), in.Trees[0].Docs...)
	docs[1].Tokens++
	docs = append(docs[:2], docs[3:]...)
	docs = append(docs, Document{Path: "new.md", Title: "New", Class: contracts.ClassNormal, Order: 99})
	edited.Trees = []CtxfileTree{in.Trees[0]}
	edited.Trees[0].Docs = docs
	got := Differences(old, Envelope(edited))
	want := []string{
		"context.meta.trees differ",
		"keyFiles: docs/context/glossary.md has changed",
		"keyFiles: docs/context/new.md is missing",
		"keyFiles: docs/context/arch/NODE.md is no longer in the tree",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Differences (-want +got):\n%s", diff)
	}
	if d := Differences([]byte("{not json"), Envelope(in)); len(d) != 1 {
		t.Errorf("garbage: %v", d)
	}
}

// TestEnvelopeRedactsEveryString: not only document texts, also names the
// export does not read from documents (a branch, a path).
func TestEnvelopeRedactsEveryString(t *testing.T) {
	in := envelopeInput(t, contracts.ProfileRepoSafe)
	branch := "wip DB_PASSWORD=Zq8xW3rT9vLp2Kd7mN4s"
	in.GitState.Branch = &branch
	in.Trees[0].Prefix = "docs/api_key=Zq8xW3rT9vLp2Kd7mN4s"
	env := Envelope(in)
	data, err := MarshalEnvelope(env)
	if err != nil {
		t.Fatal(err)
	}
	md := RenderContextMD(env)
	for what, text := range map[string]string{"context.json": string(data), "context.md": md} {
		if strings.Contains(text, "Zq8xW3rT9vLp2Kd7mN4s") {
			t.Errorf("%s leaks the secret:\n%s", what, text)
		}
	}
	// What was written is fresh against the same trees, read again.
	red, err := Redacted(env)
	if err != nil {
		t.Fatal(err)
	}
	if d := Differences(data, red); len(d) != 0 {
		t.Errorf("a redacted envelope is stale against itself: %v", d)
	}
	if RenderContextMD(red) != md {
		t.Errorf("the render of the written envelope differs from the one written")
	}
}
