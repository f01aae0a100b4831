namespace Harness.LoadTests.Calls.Http1;

/// <summary>
/// Finds one HTTP/1.1 response in a receive buffer as its bytes arrive, without waiting itself: each
/// <see cref="TryRead"/> looks at what has come so far and says whether the response is whole, so that the connection
/// has a single receive loop (one async layer per exchange). Interim (1xx) responses are skipped; a chunked body is
/// joined in place, its chunks' data moved down over their framing, and trailers are read and dropped.
/// </summary>
internal sealed class Http1ResponseReader
{
    public const int MaxHeadSize = 64 * 1024;
    public const int MaxBodySize = 1 << 30;

    private byte[] _capture = [];
    private int _start;
    private int _scanned;
    private Http1Head? _head;
    private int _bodyStart;
    private int _end;
    private int _chunkRead;
    private int _chunkWrite;
    private bool _inTrailers;

    /// <summary>The buffer size the next receive needs so that the body fits (0 when the reader cannot tell yet).</summary>
    public int RequiredSize { get; private set; }

    /// <summary>True when the body runs until the server closes the connection (no length, not chunked).</summary>
    public bool EndsAtClose => _head is { Framing: Http1Framing.UntilClose };

    /// <summary>Starts on a new response at the buffer's beginning.</summary>
    /// <param name="capture">The header whose value to locate (any case); empty for none.</param>
    public void Reset(byte[] capture)
    {
        (_capture, _start, _scanned, _head, RequiredSize, _inTrailers) = (capture, 0, 0, null, 0, false);
    }

    /// <summary>Looks at <paramref name="buffer"/>[..<paramref name="filled"/>], all that has arrived.</summary>
    /// <returns>True with the response when it is whole.</returns>
    /// <exception cref="FormatException">The bytes are not an HTTP/1.x response, or exceed the client's limits.</exception>
    public bool TryRead(byte[] buffer, int filled, out Http1Response response)
    {
        response = default;
        while (_head is null)
        {
            var found = buffer.AsSpan(_scanned, filled - _scanned).IndexOf("\r\n\r\n"u8);
            if (found < 0)
            {
                _scanned = Math.Max(_start, filled - 3);
                return filled - _start < MaxHeadSize ? false : throw new FormatException($"The reply's head is longer than {MaxHeadSize / 1024} KB.");
            }

            var blank = _scanned + found;
            var head = Http1Head.Parse(buffer.AsSpan(_start, blank - _start), _capture);
            if (head.Status < 200)
            {
                // 100 Continue and other interim answers precede the response; 101 would switch protocols, which no request asked for.
                _start = _scanned = head.Status != 101 ? blank + 4 : throw new FormatException("The server switched protocols (101), which no request asked for.");
                continue;
            }

            if (head.ContentLength > MaxBodySize)
            {
                throw new FormatException($"The reply's body ({head.ContentLength} bytes) is larger than the client takes ({MaxBodySize} bytes).");
            }

            _head = head;
            _bodyStart = _chunkRead = _chunkWrite = blank + 4;
            _end = head.Framing == Http1Framing.Length ? _bodyStart + (int)head.ContentLength : _bodyStart;
            RequiredSize = _end;
        }

        var framing = _head.Value.Framing;
        if (framing == Http1Framing.UntilClose || (framing == Http1Framing.Chunked && !TryJoinChunks(buffer, filled)) || filled < _end)
        {
            return false;
        }

        response = Response(filled == _end);
        return true;
    }

    /// <summary>The response whose body ran until the connection closed; call once the server has closed it.</summary>
    public Http1Response Closed(int filled)
    {
        if (filled - _bodyStart > MaxBodySize)
        {
            throw new FormatException($"The reply's body is larger than the client takes ({MaxBodySize} bytes).");
        }

        _end = filled;
        return Response(inStep: false);
    }

    private Http1Response Response(bool inStep)
    {
        var head = _head!.Value;
        var bodyLength = (head.Framing == Http1Framing.Chunked ? _chunkWrite : _end) - _bodyStart;
        var captured = head.CapturedStart < 0 ? -1 : _start + head.CapturedStart;

        // Bytes past the response would be a reply to nothing: the connection is no longer in step, and is not reused.
        return new Http1Response(head.Status, _bodyStart, bodyLength, captured, head.CapturedLength, head.KeepAlive && inStep);
    }

    /// <returns>True when the last chunk and the trailers have arrived; <see cref="_end"/> is then the response's end.</returns>
    private bool TryJoinChunks(byte[] buffer, int filled)
    {
        while (true)
        {
            var lineEnd = buffer.AsSpan(_chunkRead, filled - _chunkRead).IndexOf("\r\n"u8);
            if (lineEnd < 0)
            {
                return filled - _chunkRead < MaxHeadSize ? false : throw new FormatException($"The reply has a chunk line or trailer longer than {MaxHeadSize / 1024} KB.");
            }

            var line = buffer.AsSpan(_chunkRead, lineEnd);
            if (_inTrailers)
            {
                _chunkRead += lineEnd + 2;
                if (line.IsEmpty)
                {
                    _end = _chunkRead;
                    return true;
                }

                continue;
            }

            var size = Http1Head.ChunkSize(line);
            var dataAt = _chunkRead + lineEnd + 2;
            if (size == 0)
            {
                (_inTrailers, _chunkRead) = (true, dataAt);
                continue;
            }

            if (_chunkWrite - _bodyStart + (long)size > MaxBodySize)
            {
                throw new FormatException($"The reply's body is larger than the client takes ({MaxBodySize} bytes).");
            }

            if (filled < dataAt + size + 2)
            {
                RequiredSize = dataAt + size + 2;
                return false;
            }

            if (!buffer.AsSpan(dataAt + size, 2).SequenceEqual("\r\n"u8))
            {
                throw new FormatException("The reply's chunk does not end where its size says.");
            }

            Buffer.BlockCopy(buffer, dataAt, buffer, _chunkWrite, size);
            _chunkWrite += size;
            _chunkRead = dataAt + size + 2;
        }
    }
}
