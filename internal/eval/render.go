package eval

import (
	"fmt"
	"html"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Markdown renders a report for a README, an issue or a pull request.
func Markdown(r *contracts.EvalReport) string {
	var b strings.Builder
	b.WriteString("# Evaluation report\n\n## Setups\n\n")
	b.WriteString("| setup | answers | fully | partially | wrong | not answered | ungraded | time mean / P50 / P90 (s) | tool calls mean / P50 / P90 |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---|---|\n")
	for _, s := range r.Setups {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %s | %s |\n", mdCell(s.Label), s.Answers,
			s.Grades[contracts.GradeFully], s.Grades[contracts.GradePartially], s.Grades[contracts.GradeWrong], s.Grades[contracts.GradeNone], s.Ungraded,
			statsCell(s.Seconds), statsCell(s.ToolCalls))
	}
	fmt.Fprintf(&b, "\n## On the common subset (%d questions every setup fully resolved)\n\n", len(r.Common))
	b.WriteString("| setup | time mean / P50 / P90 (s) | tool calls mean / P50 / P90 |\n|---|---|---|\n")
	for _, s := range r.Setups {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCell(s.Label), statsCell(s.CommonTime), statsCell(s.CommonCall))
	}
	b.WriteString("\n## Questions\n\n| question |")
	for _, s := range r.Setups {
		b.WriteString(" " + mdCell(s.Label) + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(r.Setups)) + "\n")
	for _, q := range r.Questions {
		b.WriteString("| " + mdCell(q.Question) + " |")
		for _, s := range r.Setups {
			fmt.Fprintf(&b, " %s (P50 %gs) |", strings.Join(q.Grades[s.Run], ", "), q.Seconds[s.Run])
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Limits\n\n")
	for _, l := range r.Limits {
		b.WriteString("- " + l + "\n")
	}
	return b.String()
}

func statsCell(s contracts.EvalStats) string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%g / %g / %g (n=%d)", s.Mean, s.P50, s.P90, s.N)
}

func mdCell(s string) string { return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s) }

// HTML renders the report as one self-contained page (no network) with a
// bar chart of P50 and P90 time and tool calls per setup.
func HTML(r *contracts.EvalReport) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Evaluation report</title>\n")
	b.WriteString("<style>body{font:15px/1.5 system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}svg text{font:12px sans-serif}</style>\n</head>\n<body>\n<h1>Evaluation report</h1>\n")
	b.WriteString(chart("Time (s)", r, func(s contracts.EvalSetup) contracts.EvalStats { return s.Seconds }))
	b.WriteString(chart("Tool calls", r, func(s contracts.EvalSetup) contracts.EvalStats { return s.ToolCalls }))
	b.WriteString("<h2>Setups</h2>\n<table><tr><th>setup</th><th>answers</th>")
	for _, g := range contracts.EvalGrades {
		b.WriteString("<th>" + g + "</th>")
	}
	b.WriteString("<th>time mean / P50 / P90 (s)</th><th>tool calls mean / P50 / P90</th><th>on the common subset: time / tool calls</th></tr>\n")
	for _, s := range r.Setups {
		b.WriteString("<tr><td>" + html.EscapeString(s.Label) + "</td><td>" + fmt.Sprint(s.Answers) + "</td>")
		for _, g := range contracts.EvalGrades {
			b.WriteString("<td>" + fmt.Sprint(s.Grades[g]) + "</td>")
		}
		b.WriteString("<td>" + statsCell(s.Seconds) + "</td><td>" + statsCell(s.ToolCalls) + "</td><td>" + statsCell(s.CommonTime) + "; " + statsCell(s.CommonCall) + "</td></tr>\n")
	}
	fmt.Fprintf(&b, "</table>\n<p>Common subset: %d questions.</p>\n<h2>Limits</h2>\n<ul>\n", len(r.Common))
	for _, l := range r.Limits {
		b.WriteString("<li>" + html.EscapeString(l) + "</li>\n")
	}
	b.WriteString("</ul>\n</body>\n</html>\n")
	return b.String()
}

// chart is a horizontal bar chart of P50 (solid) and P90 (light) per setup.
func chart(title string, r *contracts.EvalReport, stat func(contracts.EvalSetup) contracts.EvalStats) string {
	top := 0.0
	for _, s := range r.Setups {
		top = max(top, stat(s).P90)
	}
	if top == 0 {
		top = 1
	}
	const width, row, label = 600.0, 28, 160
	var b strings.Builder
	fmt.Fprintf(&b, "<h2>%s</h2>\n<svg role=\"img\" aria-label=\"%s per setup, P50 and P90\" width=\"%d\" height=\"%d\">\n", title, title, int(width)+label+60, row*len(r.Setups)+10)
	for i, s := range r.Setups {
		st := stat(s)
		y := i*row + 5
		fmt.Fprintf(&b, "<text x=\"0\" y=\"%d\">%s</text>", y+16, html.EscapeString(s.Label))
		fmt.Fprintf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"20\" fill=\"#9ec5fe\"><title>P90 %g</title></rect>", label, y, width*st.P90/top, st.P90)
		fmt.Fprintf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"20\" fill=\"#0b57d0\"><title>P50 %g</title></rect>", label, y, width*st.P50/top, st.P50)
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%d\">%g / %g</text>\n", float64(label)+width*st.P90/top+4, y+16, st.P50, st.P90)
	}
	b.WriteString("</svg>\n")
	return b.String()
}
