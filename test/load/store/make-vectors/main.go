// Fills in expected_hex of every write request in fixtures/vectors/prometheus-remote-write.json
// with Prometheus' own protobuf types (prompb, as k6's remote-write output uses them), and checks
// that every snappy vector decodes to its input with the snappy decoder k6 uses, so that neither
// known answer comes from the code under test. Run from this folder, with the modules k6's build
// already fetched (load/k6-build/go.sum pins the same versions):
//
//	GOFLAGS=-mod=mod GOPROXY=off go run .
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	prompb "buf.build/gen/go/prometheus/prometheus/protocolbuffers/go"
	"github.com/klauspost/compress/snappy"
	"google.golang.org/protobuf/proto"
)

const file = "../../../../fixtures/vectors/prometheus-remote-write.json"

type series struct {
	Labels  [][2]string  `json:"labels"`
	Samples [][2]float64 `json:"samples"`
}

type writeVector struct {
	Name        string   `json:"name"`
	Series      []series `json:"series"`
	ExpectedHex string   `json:"expected_hex"`
}

type snappyVector struct {
	Name        string `json:"name"`
	InputHex    string `json:"input_hex"`
	ExpectedHex string `json:"expected_hex"`
}

type vectors struct {
	About         string         `json:"about"`
	WriteRequests []writeVector  `json:"write_requests"`
	Snappy        []snappyVector `json:"snappy"`
}

func main() {
	raw, err := os.ReadFile(file)
	check(err)
	var v vectors
	check(json.Unmarshal(raw, &v))
	for i, vector := range v.WriteRequests {
		request := &prompb.WriteRequest{}
		for _, s := range vector.Series {
			ts := &prompb.TimeSeries{}
			for _, l := range s.Labels {
				ts.Labels = append(ts.Labels, &prompb.Label{Name: l[0], Value: l[1]})
			}
			slices.SortStableFunc(ts.Labels, func(a, b *prompb.Label) int { return strings.Compare(a.Name, b.Name) })
			for _, sample := range s.Samples {
				ts.Samples = append(ts.Samples, &prompb.Sample{Value: sample[0], Timestamp: int64(sample[1])})
			}
			request.Timeseries = append(request.Timeseries, ts)
		}
		encoded, err := proto.MarshalOptions{Deterministic: true}.Marshal(request)
		check(err)
		v.WriteRequests[i].ExpectedHex = hex.EncodeToString(encoded)
	}
	for _, vector := range v.Snappy {
		input, err := hex.DecodeString(vector.InputHex)
		check(err)
		compressed, err := hex.DecodeString(vector.ExpectedHex)
		check(err)
		decoded, err := snappy.Decode(nil, compressed)
		if err != nil || !bytes.Equal(decoded, input) {
			check(fmt.Errorf("snappy vector %q does not decode to its input (%v)", vector.Name, err))
		}
	}
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	encoder.SetIndent("", "  ")
	check(encoder.Encode(v))
	check(os.WriteFile(file, out.Bytes(), 0o644))
	fmt.Printf("wrote %d write requests, checked %d snappy blocks: %s\n", len(v.WriteRequests), len(v.Snappy), file)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
