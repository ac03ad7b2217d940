module github.com/git-context-tree/git-context-tree

go 1.26

require (
	github.com/alecthomas/kong v1.17.0
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v3 v3.0.6
)
