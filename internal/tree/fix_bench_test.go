package tree

import "testing"

// BenchmarkPlanFix10k plans fix on a valid tree of 10,000 documents: every
// document is read and parsed, and the tree verified once (nothing to
// repair, the usual case once a tree is adopted). Compare with
// BenchmarkVerify10k.
func BenchmarkPlanFix10k(b *testing.B) {
	t := generatedTree(b, 10_000)
	b.ResetTimer()
	var plan *FixPlan
	for b.Loop() {
		var err error
		if plan, err = PlanFix(t.root, FixOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(plan.Changes) != 0 || len(plan.Remaining) != 0 {
		b.Fatalf("plan: %d changes, %d remaining (first %+v)", len(plan.Changes), len(plan.Remaining), firstFinding(plan.Remaining))
	}
}
