namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// The bounds that keep the lean gRPC client's memory and work finite whatever a server sends (docs/hostile-servers.md
/// lists each with the failure it ends in). Each is checked with a counter where the bytes are already handled, so the
/// common path pays a comparison, not a pass over the bytes.
/// </summary>
internal static class Http2Limits
{
    /// <summary>
    /// The largest response header list, in RFC 7541 terms (name + value + 32 per field), advertised as
    /// SETTINGS_MAX_HEADER_LIST_SIZE: 64 KiB, as SocketsHttpHandler's default MaxResponseHeadersLength.
    /// </summary>
    public const int MaxHeaderListSize = 64 * 1024;

    /// <summary>
    /// The largest header block, as sent (HEADERS and its CONTINUATIONs): the list's limit, since no encoder needs more
    /// bytes than the fields it encodes. A block past it is buffered no further: the connection ends (ENHANCE_YOUR_CALM).
    /// </summary>
    public const int MaxHeaderBlockSize = MaxHeaderListSize;

    /// <summary>CONTINUATION frames one header block may take: nghttp2's default (NGHTTP2_DEFAULT_MAX_CONTINUATIONS).</summary>
    public const int MaxContinuations = 8;

    /// <summary>
    /// PING and SETTINGS acknowledgements queued and not yet written: nghttp2's default (NGHTTP2_DEFAULT_MAX_OBQ_FLOOD_ITEM).
    /// A server that provokes more than it reads is flooding; also the margin of RST_STREAMs a server may send for
    /// streams that are no longer open, beyond one per stream the client opened.
    /// </summary>
    public const int MaxQueuedAcks = 1000;

    /// <summary>Grpc.Net.Client's default MaxReceiveMessageSize: 4 MiB.</summary>
    public const int DefaultMaxReceiveMessageSize = MessageSizes.Default;

    /// <summary>The largest maximum message a client may be given: its stream window (twice it, at most 2^31-1) still holds it with padding.</summary>
    public const int MaxReceiveMessageSizeLimit = MessageSizes.Max;

    /// <summary>
    /// The runner's receive window per stream, advertised as SETTINGS_INITIAL_WINDOW_SIZE and never topped up: a unary
    /// reply (one message, at most <paramref name="maxReceiveMessageSize"/>, with padding) fits in it, so the server never
    /// waits, and a server that sends past it breaks flow control (FLOW_CONTROL_ERROR).
    /// </summary>
    public static int StreamReceiveWindow(int maxReceiveMessageSize) =>
        (int)Math.Min(int.MaxValue, Math.Max(Http2Frames.ReceiveWindow, 2L * maxReceiveMessageSize));
}
