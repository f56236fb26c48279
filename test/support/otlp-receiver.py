# An OTLP/HTTP trace receiver for tests: decodes each export with the official protobuf definitions
# (opentelemetry-proto's ExportTraceServiceRequest; OTLP/JSON through protobuf's json_format, its hex ids turned
# back into the bytes protobuf expects) and appends every span as one JSON line to the file named on the command
# line, with the request's path, content type and headers. Prints its port once listening.

import base64
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

out_path = sys.argv[1]
id_fields = {"traceId", "spanId", "parentSpanId"}


def hex_ids_to_base64(value):
    """OTLP/JSON writes trace and span ids in hex where protobuf's JSON mapping expects base64."""
    if isinstance(value, dict):
        return {
            key: base64.b64encode(bytes.fromhex(item)).decode() if key in id_fields and isinstance(item, str) else hex_ids_to_base64(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [hex_ids_to_base64(item) for item in value]
    return value


def any_value(value):
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [any_value(item) for item in value.array_value.values]
    if kind == "kvlist_value":
        return {item.key: any_value(item.value) for item in value.kvlist_value.values}
    if kind == "bytes_value":
        return value.bytes_value.hex()
    return getattr(value, kind) if kind else None


def attributes(items):
    return {item.key: any_value(item.value) for item in items}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

    def read_body(self):
        if self.headers.get("transfer-encoding", "").lower() != "chunked":
            return self.rfile.read(int(self.headers.get("content-length", "0")))
        body = b""
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                while self.rfile.readline().strip():
                    pass  # trailers
                return body
            body += self.rfile.read(size)
            self.rfile.readline()

    def do_POST(self):
        body = self.read_body()
        content_type = self.headers.get("content-type", "")
        json_encoded = content_type.startswith("application/json")
        try:
            if json_encoded:
                request = json_format.ParseDict(hex_ids_to_base64(json.loads(body)), ExportTraceServiceRequest())
            else:
                request = ExportTraceServiceRequest.FromString(body)
        except Exception as error:  # a malformed export is recorded as such and refused
            with open(out_path, "a") as out:
                out.write(json.dumps({"path": self.path, "error": str(error)}) + "\n")
            self.send_response(400)
            self.end_headers()
            return
        lines = []
        for resource_spans in request.resource_spans:
            resource = attributes(resource_spans.resource.attributes)
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    lines.append(
                        {
                            "path": self.path,
                            "contentType": content_type,
                            "headers": {name.lower(): value for name, value in self.headers.items()},
                            "resource": resource,
                            "scope": scope_spans.scope.name,
                            "name": span.name,
                            "kind": span.kind,
                            "traceId": span.trace_id.hex(),
                            "spanId": span.span_id.hex(),
                            "parentSpanId": span.parent_span_id.hex(),
                            "startTimeUnixNano": span.start_time_unix_nano,
                            "endTimeUnixNano": span.end_time_unix_nano,
                            "status": {"code": span.status.code, "message": span.status.message},
                            "attributes": attributes(span.attributes),
                        }
                    )
        with open(out_path, "a") as out:
            for line in lines:
                out.write(json.dumps(line) + "\n")
        response = ExportTraceServiceResponse()
        payload = json_format.MessageToJson(response).encode() if json_encoded else response.SerializeToString()
        self.send_response(200)
        self.send_header("content-type", "application/json" if json_encoded else "application/x-protobuf")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
