namespace Harness.LoadTests.Clients.Http1;

/// <summary>
/// Finds one HTTP/1.1 response in a receive buffer as its bytes arrive, without waiting itself: each
/// <see cref="TryRead"/> looks at what has come so far and says whether the response is whole, so that the connection
/// has a single receive loop (one async layer per exchange). Interim (1xx) responses are skipped; a chunked body is
/// joined in place, its chunks' data moved down over their framing, and trailers are read and dropped.
/// </summary>
/// <remarks>
/// Every part of a response has a bound, so that no server can make a connection hold more than
/// <see cref="MaxBufferSize"/> bytes: the head, interim responses included, <see cref="MaxHeadSize"/> bytes in all
/// (HttpClient's <c>MaxResponseHeadersLength</c> default); at most <see cref="MaxInterimResponses"/> interim responses;
/// a chunk-size line <see cref="MaxChunkLineSize"/> bytes (HttpClient's); trailers <see cref="MaxHeadSize"/> bytes; the
/// body <see cref="MaxBodySize"/> bytes, refused by its Content-Length before any of it is read. Framing and trailers
/// already read are dropped from the buffer rather than kept behind the body. A bound exceeded is an
/// <see cref="HttpIOException"/> of <see cref="HttpRequestError.ConfigurationLimitExceeded"/>, as HttpClient throws for
/// its own limits.
/// </remarks>
internal sealed class Http1ResponseReader
{
    public const int MaxHeadSize = 64 * 1024;
    public const int MaxInterimResponses = 32;
    public const int MaxChunkLineSize = 16 * 1024;
    public const int DefaultMaxBodySize = MessageSizes.Default;

    private byte[] _capture = [];
    private int _start;
    private int _scanned;
    private int _interim;
    private Http1Head? _head;
    private int _bodyStart;
    private int _end;
    private int _chunkRead;
    private int _chunkWrite;
    private bool _inTrailers;
    private int _trailerBytes;

    /// <param name="maxBodySize">The largest body taken; a longer one fails the exchange.</param>
    public Http1ResponseReader(int maxBodySize = DefaultMaxBodySize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxBodySize);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxBodySize, LargestMaxBodySize);
        MaxBodySize = maxBodySize;
    }

    /// <summary>The largest <see cref="MaxBodySize"/> a buffer can hold beside the head's and the trailers' bounds.</summary>
    public static int LargestMaxBodySize => Array.MaxLength - (2 * MaxHeadSize) - 2;

    public int MaxBodySize { get; }

    /// <summary>
    /// The most bytes a response can occupy in the buffer before one of the bounds fails it: the head, the body, and
    /// one chunk-size line or the trailers still unread.
    /// </summary>
    public int MaxBufferSize => (2 * MaxHeadSize) + MaxBodySize + 2;

    /// <summary>The buffer size the response needs when the reader knows it (a length, a chunk's size); 0 when it cannot tell yet.</summary>
    public int RequiredSize { get; private set; }

    /// <summary>True when the body runs until the server closes the connection (no length, not chunked).</summary>
    public bool EndsAtClose => _head is { Framing: Http1Framing.UntilClose };

    /// <summary>Starts on a new response at the buffer's beginning.</summary>
    /// <param name="capture">The header whose value to locate (any case); empty for none.</param>
    public void Reset(byte[] capture)
    {
        (_capture, _start, _scanned, _interim, _head, RequiredSize, _inTrailers, _trailerBytes) = (capture, 0, 0, 0, null, 0, false, 0);
    }

    /// <summary>Looks at <paramref name="buffer"/>[..<paramref name="filled"/>], all that has arrived.</summary>
    /// <param name="filled">The bytes in the buffer; less after the call when it dropped a chunked body's framing.</param>
    /// <returns>True with the response when it is whole.</returns>
    /// <exception cref="FormatException">The bytes are not an HTTP/1.x response.</exception>
    /// <exception cref="HttpIOException">The response exceeds one of the bounds (<see cref="HttpRequestError.ConfigurationLimitExceeded"/>).</exception>
    public bool TryRead(byte[] buffer, ref int filled, out Http1Response response)
    {
        response = default;
        while (_head is null)
        {
            // The head's budget counts from the buffer's start, so interim responses spend it too.
            var found = buffer.AsSpan(_scanned, filled - _scanned).IndexOf("\r\n\r\n"u8);
            if (found < 0 || _scanned + found + 4 > MaxHeadSize)
            {
                _scanned = Math.Max(_start, filled - 3);
                return filled < MaxHeadSize ? false : throw Exceeded($"The reply's head, interim responses included, is longer than {MaxHeadSize} bytes.");
            }

            var blank = _scanned + found;
            var head = Http1Head.Parse(buffer.AsSpan(_start, blank - _start), _capture);
            if (head.Status < 200)
            {
                // 100 Continue and other interim answers precede the response; 101 would switch protocols, which no request asked for.
                if (head.Status == 101)
                {
                    throw new FormatException("The server switched protocols (101), which no request asked for.");
                }

                _start = _scanned = ++_interim <= MaxInterimResponses
                    ? blank + 4
                    : throw Exceeded($"The reply has more than {MaxInterimResponses} interim (1xx) responses.");
                continue;
            }

            if (head.ContentLength > MaxBodySize)
            {
                throw Exceeded($"The reply's Content-Length ({head.ContentLength} bytes) is larger than the client takes ({MaxBodySize} bytes).");
            }

            _head = head;
            _bodyStart = _chunkRead = _chunkWrite = blank + 4;
            _end = head.Framing == Http1Framing.Length ? _bodyStart + (int)head.ContentLength : _bodyStart;
            RequiredSize = head.Framing == Http1Framing.Length ? _end : 0;
        }

        switch (_head.Value.Framing)
        {
            case Http1Framing.UntilClose:
                return filled - _bodyStart <= MaxBodySize ? false : throw BodyTooLarge();
            case Http1Framing.Chunked when !TryJoinChunks(buffer, ref filled):
                return false;
        }

        if (filled < _end)
        {
            return false;
        }

        response = Response(filled == _end);
        return true;
    }

    /// <summary>The response whose body ran until the connection closed; call once the server has closed it.</summary>
    public Http1Response Closed(int filled)
    {
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
    private bool TryJoinChunks(byte[] buffer, ref int filled)
    {
        while (true)
        {
            var lineEnd = buffer.AsSpan(_chunkRead, filled - _chunkRead).IndexOf("\r\n"u8);
            if (lineEnd < 0)
            {
                var pending = filled - _chunkRead;
                if (_inTrailers ? _trailerBytes + pending >= MaxHeadSize : pending >= MaxChunkLineSize)
                {
                    throw Exceeded(_inTrailers
                        ? $"The reply's trailers are longer than {MaxHeadSize} bytes."
                        : $"The reply has a chunk-size line longer than {MaxChunkLineSize} bytes.");
                }

                RequiredSize = 0;
                Compact(buffer, ref filled);
                return false;
            }

            var line = buffer.AsSpan(_chunkRead, lineEnd);
            if (_inTrailers)
            {
                _chunkRead += lineEnd + 2;
                _trailerBytes += lineEnd + 2;
                if (line.IsEmpty)
                {
                    _end = _chunkRead;
                    return true;
                }

                if (_trailerBytes >= MaxHeadSize)
                {
                    throw Exceeded($"The reply's trailers are longer than {MaxHeadSize} bytes.");
                }

                continue;
            }

            if (lineEnd >= MaxChunkLineSize)
            {
                throw Exceeded($"The reply has a chunk-size line longer than {MaxChunkLineSize} bytes.");
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
                throw BodyTooLarge();
            }

            if (filled < dataAt + size + 2)
            {
                // The chunk's line stays until its data has come: it is read again then.
                Compact(buffer, ref filled);
                RequiredSize = _chunkRead + lineEnd + 2 + size + 2;
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

    /// <summary>
    /// Drops the framing already read (between the joined body and what is still unread) by moving the unread bytes
    /// down, so that a body of many small chunks, or long chunk extensions, holds no more than the body.
    /// </summary>
    private void Compact(byte[] buffer, ref int filled)
    {
        var dropped = _chunkRead - _chunkWrite;
        if (dropped > 0)
        {
            Buffer.BlockCopy(buffer, _chunkRead, buffer, _chunkWrite, filled - _chunkRead);
            filled -= dropped;
            _chunkRead = _chunkWrite;
        }
    }

    private HttpIOException BodyTooLarge() => Exceeded($"The reply's body is larger than the client takes ({MaxBodySize} bytes).");

    private static HttpIOException Exceeded(string message) => new(HttpRequestError.ConfigurationLimitExceeded, message);
}
