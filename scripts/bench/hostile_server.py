"""A misbehaving server on 127.0.0.1 for scripts/bench-hostile.sh: serves one named case until killed.

    python3 hostile_server.py CASE PORT_FILE

Binds a free port, writes it to PORT_FILE, and answers every connection as CASE says (the cases of
tests/Harness.LoadTests.Tests/HostileServers.cs, plus silent ones). Every loop is bounded: a connection is served
at most MAX_CALLS calls, an endless reply at most ENDLESS_BYTES, a slow one at most SLOW_SECONDS.
"""
import asyncio
import struct
import sys

MAX_CALLS = 100_000
ENDLESS_BYTES = 256 * 1024 * 1024
SLOW_SECONDS = 10

# HTTP/2 (RFC 9113) and HPACK (RFC 7541), just enough to answer a gRPC client.
DATA, HEADERS, SETTINGS, PING = 0x0, 0x1, 0x4, 0x6
END_STREAM, END_HEADERS = 0x1, 0x4


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def literal(name, value):  # a literal field without indexing, new name, no Huffman
    def string(s):
        b = s.encode()
        assert len(b) < 127
        return bytes([len(b)]) + b
    return b"\x00" + string(name) + string(value)


RESPONSE_HEADERS = b"\x88" + literal("content-type", "application/grpc")  # :status 200
# 2,500 bytes naming the static table's accept-encoding: gzip, deflate (60 bytes decoded each): 150 KB of headers.
HPACK_BOMB = RESPONSE_HEADERS + b"\x90" * 2_500


def h2_answer(case, stream):
    """The frames answering one call, or None to answer it with silence."""
    if case == "grpc-hpack-bomb":
        return frame(HEADERS, END_STREAM | END_HEADERS, stream, HPACK_BOMB)
    if case == "grpc-length-2g":  # a message claiming 2^31-1 bytes, 16 KB of them at once
        return frame(HEADERS, END_HEADERS, stream, RESPONSE_HEADERS) + frame(DATA, 0, stream, b"\x00" + struct.pack(">I", 2**31 - 1) + bytes(16_000))
    if case == "grpc-frame-size":  # a PING of 7 bytes (it must be 8): FRAME_SIZE_ERROR
        return frame(PING, 0, 0, bytes(7))
    return None


async def serve_h2(case, reader, writer):
    await reader.readexactly(24)  # the client's preface
    writer.write(frame(SETTINGS, 0, 0) + frame(SETTINGS, 1, 0))
    await writer.drain()
    for _ in range(MAX_CALLS * 4):  # frames read: a call is a few of them
        head = await reader.readexactly(9)
        length = int.from_bytes(head[:3], "big")
        kind, flags = head[3], head[4]
        stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
        await reader.readexactly(length)
        if kind == HEADERS:
            answer = h2_answer(case, stream)
            if answer is not None:
                writer.write(answer)
                await writer.drain()
        elif kind == PING and not flags & 1:
            writer.write(frame(PING, 1, 0, bytes(8)))


async def read_request(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    await reader.readexactly(length)


async def serve_http1(case, reader, writer):
    for _ in range(MAX_CALLS):
        await read_request(reader)
        if case == "soap-endless-chunked":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"4000\r\n" + b"x" * 0x4000 + b"\r\n"
            for _ in range(ENDLESS_BYTES // len(chunk)):
                writer.write(chunk)
                await writer.drain()
        elif case == "soap-continue-forever":
            interim = b"HTTP/1.1 100 Continue\r\n\r\n"
            for _ in range(ENDLESS_BYTES // len(interim) // 64):
                writer.write(interim * 64)
                await writer.drain()
        elif case == "soap-length-1g-slow":  # 1 GiB announced, a byte every 50 ms
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: %d\r\n\r\n" % (1 << 30))
            for _ in range(SLOW_SECONDS * 20):
                writer.write(b"x")
                await writer.drain()
                await asyncio.sleep(0.05)
        return  # a silent server, or a reply the client gave up on: nothing more on this connection


async def serve_silent(reader, writer):
    for _ in range(MAX_CALLS * 100):  # reads and drops, never writes
        if not await reader.read(65536):
            return


def handler(case):
    async def handle(reader, writer):
        try:
            if case.endswith("-silent"):
                await serve_silent(reader, writer)
            elif case.startswith("grpc-"):
                await serve_h2(case, reader, writer)
            else:
                await serve_http1(case, reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass  # the client closed or gave up: the point
        finally:
            writer.close()
    return handle


CASES = ["grpc-silent", "grpc-frame-size", "grpc-hpack-bomb", "grpc-length-2g",
         "soap-silent", "soap-endless-chunked", "soap-continue-forever", "soap-length-1g-slow"]


async def main(case, port_file):
    server = await asyncio.start_server(handler(case), "127.0.0.1", 0, backlog=512)
    with open(port_file, "w") as f:
        f.write(str(server.sockets[0].getsockname()[1]))
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        sys.exit(f"usage: hostile_server.py CASE PORT_FILE; CASE one of {', '.join(CASES)}")
    asyncio.run(main(sys.argv[1], sys.argv[2]))
