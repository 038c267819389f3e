module svc-harness/test/load/store/make-vectors

go 1.25

require (
	buf.build/gen/go/prometheus/prometheus/protocolbuffers/go v1.36.11-20260707164124-2360da55afce.1
	github.com/klauspost/compress v1.19.1
	google.golang.org/protobuf v1.36.11
)

require buf.build/gen/go/gogo/protobuf/protocolbuffers/go v1.36.11-20240617172848-e1dbca2775a7.1 // indirect
