package cli

// exportCmd groups the generated views of a tree. Each view is a
// subcommand in a file of its own (export_<view>.go).
type exportCmd struct {
	Llms    exportLlmsCmd    `cmd:"" name:"llms" help:"Write llms.txt and llms-full.txt for a tree."`
	Ctxfile exportCtxfileCmd `cmd:"" name:"ctxfile" help:"Write the .ctxfile envelope (.ctxfile/context.json and context.md) at the project root."`
	Site    exportSiteCmd    `cmd:"" name:"site" help:"Write a static site of a tree: pages, navigation, search and a soft-link map."`
}

func (cmd *exportCmd) Help() string {
	return `Generated views of a tree, for agents and tools that look for them:
llms.txt (an index) and llms-full.txt (every document) in the llms.txt
format and the .ctxfile envelope; and for people, a static site. Outputs
are redacted, read by the same rules as read and verify (no
infrastructure, no symlinks), and byte-identical for the same tree (the
site apart from its generation time).`
}
