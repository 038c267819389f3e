// The k6 command, built from the pinned go.k6.io/k6/v2 module (see go.mod beside this
// file and src/load/k6/build.ts). Same entry point as k6's own main.go.
package main

import "go.k6.io/k6/v2/cmd"

func main() { cmd.Execute() }
