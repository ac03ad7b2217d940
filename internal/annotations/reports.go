package annotations

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// FromVerify is one annotation per finding, on the document's line.
func FromVerify(rep *contracts.VerifyReport, top string) []Annotation {
	var out []Annotation
	for _, t := range rep.Trees {
		for _, f := range t.Findings {
			a := Annotation{Rule: string(f.Code), Level: levelError, Title: "Context Tree: " + string(f.Code), Message: findingText(f)}
			if p, ok := repoPath(top, filepath.Join(t.Root, filepath.FromSlash(f.Path))); ok {
				a.Where = &Location{Path: p, StartLine: f.Line, EndLine: f.Line}
			} else {
				a.Message = f.Path + ": " + a.Message
			}
			out = append(out, a)
		}
	}
	return out
}

func findingText(f contracts.Finding) string {
	if f.Target != "" {
		return fmt.Sprintf("%s: %s", f.Message, f.Target)
	}
	return f.Message
}

// Drift rule ids, one per status.
func driftRule(status string) string {
	return "DRIFT_" + strings.ToUpper(strings.ReplaceAll(status, "-", "_"))
}

// FromDrift is one annotation per drifted entry: on the cited code's
// current lines when it is in this repository and still there (a
// reviewer sees it beside the change), else on the document's entry.
// Changed and deleted code is a warning; entries that cannot be compared
// (unstamped, unknown commit, unavailable) are notes.
func FromDrift(rep *contracts.DriftReport, top string) []Annotation {
	var out []Annotation
	for _, t := range rep.Trees {
		for _, d := range t.Documents {
			docPath, docInRepo := repoPath(top, filepath.Join(t.Root, filepath.FromSlash(d.Path)))
			docName := d.Path
			if docInRepo {
				docName = docPath
			}
			for _, s := range d.Sources {
				a := Annotation{Rule: driftRule(s.Status), Level: levelNote, Title: "Context Tree: cited code " + s.Status}
				if s.Status == contracts.DriftChanged || s.Status == contracts.DriftDeleted {
					a.Level = levelWarning
				}
				a.Message = driftText(docName, s)
				var docLoc *Location
				if docInRepo {
					docLoc = &Location{Path: docPath, StartLine: s.Line, EndLine: s.Line}
				}
				if code := codeLocation(s); code != nil {
					a.Where = code
					if docLoc != nil {
						a.Related = []Location{*docLoc}
					}
				} else {
					a.Where = docLoc
				}
				out = append(out, a)
			}
		}
	}
	return out
}

// codeLocation is where a drifted entry's code is now, in the project's
// repository; nil when it is gone or in another repository.
func codeLocation(s contracts.DriftSource) *Location {
	if s.Repository != "" || s.Status != contracts.DriftChanged || s.CurrentPath == "" {
		return nil
	}
	loc := &Location{Path: s.CurrentPath}
	if s.CurrentLines != "" {
		a, b, _ := strings.Cut(s.CurrentLines, "-")
		loc.StartLine, _ = strconv.Atoi(a)
		loc.EndLine = loc.StartLine
		if b != "" {
			loc.EndLine, _ = strconv.Atoi(b)
		}
	}
	return loc
}

func driftText(doc string, s contracts.DriftSource) string {
	cited := s.Cited()
	var b strings.Builder
	fmt.Fprintf(&b, "%s cites %s, %s", doc, cited, s.Status)
	if s.Since != "" {
		fmt.Fprintf(&b, " since %.7s", s.Since)
	}
	if n := len(s.Commits); n > 0 {
		ids := make([]string, n)
		for i, c := range s.Commits {
			ids[i] = c[:min(7, len(c))]
		}
		fmt.Fprintf(&b, " by %d commit(s): %s", n, strings.Join(ids, " "))
	}
	if s.Message != "" {
		b.WriteString("; " + s.Message)
	}
	b.WriteString(". Re-read the code, update the document, then: git context-tree evidence stamp " + doc)
	return b.String()
}
