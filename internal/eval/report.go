package eval

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// NearestRank is the p-th percentile of values by the nearest-rank
// method: the smallest value such that at least p% of the values are at
// or below it, i.e. the ⌈p/100 × N⌉-th smallest (the smallest for p = 0);
// 0 for no values.
func NearestRank(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s := slices.Clone(values)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[max(rank, 1)-1]
}

// Stats are the mean, P50 and P90 of values.
func Stats(values []float64) contracts.EvalStats {
	st := contracts.EvalStats{N: len(values)}
	if len(values) == 0 {
		return st
	}
	sum := 0.0
	for _, v := range values {
		sum += v
	}
	st.Mean = round(sum / float64(len(values)))
	st.P50, st.P90 = round(NearestRank(values, 50)), round(NearestRank(values, 90))
	return st
}

func round(v float64) float64 { return math.Round(v*1000) / 1000 }

// Report computes the report of runs of one set (their manifests with
// graded answers). Repetitions are pooled; a question is in the common
// subset when every repetition of it in every run is fully resolved.
func Report(runs []contracts.EvalRun) (*contracts.EvalReport, error) {
	if len(runs) == 0 {
		return nil, contracts.Errorf(contracts.CodeUsage, "name at least one run")
	}
	for _, r := range runs[1:] {
		if r.Set.Digest != runs[0].Set.Digest {
			return nil, contracts.Errorf(contracts.CodeEvalSetChanged, "runs %s and %s used different question sets (%s, %s): their answers cannot be compared", runs[0].ID, r.ID, runs[0].Set.Digest, r.Set.Digest)
		}
	}
	common := commonSubset(runs)
	rep := &contracts.EvalReport{SchemaVersion: contracts.CLIVersion, Common: common, Setups: []contracts.EvalSetup{}, Questions: []contracts.EvalQuestRow{}}
	inCommon := map[string]bool{}
	for _, q := range common {
		inCommon[q] = true
	}
	for _, r := range runs {
		rep.Setups = append(rep.Setups, setupOf(r, inCommon))
	}
	rep.Questions = questionRows(runs)
	rep.Limits = limits(runs)
	return rep, nil
}

func setupOf(r contracts.EvalRun, inCommon map[string]bool) contracts.EvalSetup {
	s := contracts.EvalSetup{Run: r.ID, Label: r.Label, Answers: len(r.Answers), Grades: map[string]int{}}
	for _, g := range contracts.EvalGrades {
		s.Grades[g] = 0
	}
	var secs, calls, cSecs, cCalls []float64
	for _, a := range r.Answers {
		if a.Grade == "" {
			s.Ungraded++
		} else {
			s.Grades[a.Grade]++
		}
		secs = append(secs, a.Seconds)
		if a.ToolCalls >= 0 {
			calls = append(calls, float64(a.ToolCalls))
		}
		if inCommon[a.Question] {
			cSecs = append(cSecs, a.Seconds)
			if a.ToolCalls >= 0 {
				cCalls = append(cCalls, float64(a.ToolCalls))
			}
		}
	}
	s.Seconds, s.ToolCalls = Stats(secs), Stats(calls)
	s.CommonTime, s.CommonCall = Stats(cSecs), Stats(cCalls)
	return s
}

// commonSubset is the questions every run answered, every repetition
// fully resolved, sorted.
func commonSubset(runs []contracts.EvalRun) []string {
	ok := map[string]int{} // question -> runs that fully resolved it
	for _, r := range runs {
		all := map[string]bool{}
		for _, a := range r.Answers {
			if _, seen := all[a.Question]; !seen {
				all[a.Question] = true
			}
			all[a.Question] = all[a.Question] && a.Grade == contracts.GradeFully
		}
		for q, fully := range all {
			if fully {
				ok[q]++
			}
		}
	}
	out := []string{}
	for q, n := range ok {
		if n == len(runs) {
			out = append(out, q)
		}
	}
	sort.Strings(out)
	return out
}

func questionRows(runs []contracts.EvalRun) []contracts.EvalQuestRow {
	byQ := map[string]*contracts.EvalQuestRow{}
	var order []string
	for _, r := range runs {
		secs := map[string][]float64{}
		for _, a := range r.Answers {
			row, ok := byQ[a.Question]
			if !ok {
				row = &contracts.EvalQuestRow{Question: a.Question, Grades: map[string][]string{}, Seconds: map[string]float64{}}
				byQ[a.Question] = row
				order = append(order, a.Question)
			}
			g := a.Grade
			if g == "" {
				g = "ungraded"
			}
			row.Grades[r.ID] = append(row.Grades[r.ID], g)
			secs[a.Question] = append(secs[a.Question], a.Seconds)
		}
		for q, v := range secs {
			byQ[q].Seconds[r.ID] = round(NearestRank(v, 50))
		}
	}
	sort.Strings(order)
	out := make([]contracts.EvalQuestRow, 0, len(order))
	for _, q := range order {
		out = append(out, *byQ[q])
	}
	return out
}

// limits states what the numbers are and are not, from the manifests.
func limits(runs []contracts.EvalRun) []string {
	var out []string
	reviewers := map[string]bool{}
	for _, r := range runs {
		state := "outside git"
		if r.Project.Head != "" {
			state = "at commit " + r.Project.Head[:min(12, len(r.Project.Head))]
			if r.Project.Dirty != nil && *r.Project.Dirty {
				state += " with uncommitted changes"
			}
		}
		out = append(out, fmt.Sprintf("%s (%s): %d questions × %d repetitions = %d answers, %s, agent command `%s`, timeout %gs, run in %s, project %s, trace format %s.",
			r.Label, r.ID, r.Set.Questions, r.Repeat, len(r.Answers), r.Started.UTC().Format("2006-01-02"), r.AgentCommand, r.TimeoutSec, r.In, state, r.TraceFormat))
		for _, a := range r.Answers {
			if a.Reviewer != "" {
				reviewers[a.Reviewer] = true
			}
		}
	}
	names := make([]string, 0, len(reviewers))
	for n := range reviewers {
		names = append(names, "`"+n+"`")
	}
	sort.Strings(names)
	out = append(out,
		"Time is the agent process's wall time from start to exit (the model's latency and every tool it ran included; the harness excluded). Tool calls are counted from each answer's trace; an answer whose trace format is unknown is left out of the tool-call figures.",
		"Percentiles are nearest-rank: P50 and P90 are the ⌈0.5·N⌉-th and ⌈0.9·N⌉-th smallest values. Repetitions are pooled. The common subset holds the questions every setup fully resolved in every repetition.",
		fmt.Sprintf("Set %s (%s), %d questions. Graded blind (the reviewer saw the question, its criteria and one answer, never the setup) by %s.", runs[0].Set.Name, runs[0].Set.Digest, runs[0].Set.Questions, orNone(strings.Join(names, ", "))))
	return out
}

func orNone(s string) string {
	if s == "" {
		return "nobody yet"
	}
	return s
}
