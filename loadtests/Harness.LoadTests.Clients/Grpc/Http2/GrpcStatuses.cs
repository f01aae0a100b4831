using System.Net.Sockets;
using System.Text;
using Grpc.Core;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// The statuses a call ends with, as Grpc.Net.Client reports the same events, so that <c>FailureStatus</c> counts
/// both clients' failures alike (the parity tests hold them to it).
/// </summary>
internal static class GrpcStatuses
{
    /// <summary>An HTTP status other than 200 (gRPC's PROTOCOL-HTTP2 mapping, as Grpc.Net.Client applies it).</summary>
    public static Status ForHttpStatus(int httpStatus) => new(
        httpStatus switch
        {
            400 or 431 => StatusCode.Internal,
            401 => StatusCode.Unauthenticated,
            403 => StatusCode.PermissionDenied,
            404 => StatusCode.Unimplemented,
            429 or 502 or 503 or 504 => StatusCode.Unavailable,
            >= 100 and < 200 => StatusCode.Internal,
            _ => StatusCode.Unknown,
        },
        $"Bad gRPC response. HTTP status code: {httpStatus}");

    /// <summary>The server reset the stream: gRPC's mapping of HTTP/2 error codes.</summary>
    public static Status ForReset(uint errorCode) => new(
        errorCode switch
        {
            Http2Frames.RefusedStream => StatusCode.Unavailable,
            Http2Frames.Cancel => StatusCode.Cancelled,
            Http2Frames.EnhanceYourCalm => StatusCode.ResourceExhausted,
            Http2Frames.InadequateSecurity => StatusCode.PermissionDenied,
            _ => StatusCode.Internal,
        },
        $"Error starting gRPC call. HttpProtocolException: The HTTP/2 server reset the stream. HTTP/2 error code '{Http2Frames.ErrorName(errorCode)}' (0x{errorCode:x}).",
        new IOException($"The HTTP/2 server reset the stream with {Http2Frames.ErrorName(errorCode)}."));

    /// <summary>
    /// No connection, or the one in use broke: UNAVAILABLE with the socket's error under it, which is what makes
    /// <c>FailureStatus.IsConnectionFailure</c> true and the engine back off.
    /// </summary>
    public static Status ForConnection(Exception cause) =>
        new(StatusCode.Unavailable, $"Error starting gRPC call. {cause.GetType().Name}: {cause.Message}", cause);

    /// <summary>The server closed the connection without an error on the socket: a reset, as far as the call is concerned.</summary>
    public static Exception ConnectionClosed() =>
        new IOException("The server closed the HTTP/2 connection.", new SocketException((int)SocketError.ConnectionReset));

    /// <summary>
    /// The server broke HTTP/2 or one of the connection's bounds (<see cref="Http2Limits"/>), so the runner closed the
    /// connection with a GOAWAY of <paramref name="errorCode"/>: the calls on it are lost as on a broken connection
    /// (UNAVAILABLE with a socket error under it), so the engine backs off as after a refused one instead of opening a
    /// new connection at once for the same answer. Grpc.Net.Client says UNAVAILABLE too for such an error in a
    /// response's headers (INTERNAL in its body), but does not back off.
    /// </summary>
    public static Status ForProtocolError(uint errorCode, string reason) => ForConnection(new IOException(
        $"The HTTP/2 server sent invalid data on the connection. HTTP/2 error code '{Http2Frames.ErrorName(errorCode)}' (0x{errorCode:x}): {reason}.",
        new SocketException((int)SocketError.ConnectionAborted)));

    /// <summary>The response's header list was larger than <see cref="Http2Limits.MaxHeaderListSize"/>: as Grpc.Net.Client says it (not a connection failure).</summary>
    public static Status HeadersTooLarge { get; } = new(
        StatusCode.Unavailable,
        $"Bad gRPC response. The HTTP response headers length exceeded the set limit of {Http2Limits.MaxHeaderListSize} bytes.");

    /// <summary>The reply's length prefix was above the client's maximum: Grpc.Net.Client's status and words.</summary>
    public static Status MessageTooLarge { get; } = new(StatusCode.ResourceExhausted, "Received message exceeds the maximum configured message size.");

    /// <summary>More DATA after a unary call's one message: as Grpc.Net.Client says it.</summary>
    public static Status ExcessData { get; } = new(StatusCode.Internal, "Bad gRPC response. Unexpected data after finished reading message.");

    /// <summary>A <c>grpc-status</c> that is not a number: INTERNAL, as Grpc.Net.Client, the value quoted (at most 64 characters).</summary>
    public static Status MalformedStatus(ReadOnlySpan<byte> value)
    {
        const int Quoted = 64;
        var text = Encoding.Latin1.GetString(value[..Math.Min(value.Length, Quoted)]);
        return new(StatusCode.Internal, $"Bad gRPC response. Unexpected grpc-status value: {text}{(value.Length > Quoted ? "..." : string.Empty)}");
    }

    public static Status Cancelled { get; } = new(StatusCode.Cancelled, "Call canceled by the client.");

    public static Status NoStatus { get; } = new(StatusCode.Cancelled, "No grpc-status found on response.");

    public static Status BadReply { get; } = new(StatusCode.Internal, "Failed to deserialize response message.");

    /// <summary>The status a server sent (<c>grpc-status</c>, <c>grpc-message</c>).</summary>
    public static Status FromServer(int code, string? message) => new((StatusCode)code, message ?? string.Empty);

    /// <summary><c>grpc-message</c>'s percent-encoding (gRPC PROTOCOL-HTTP2): %XX bytes of UTF-8, anything else as is.</summary>
    public static string DecodeMessage(ReadOnlySpan<byte> value)
    {
        if (value.IndexOf((byte)'%') < 0)
        {
            return Encoding.UTF8.GetString(value);
        }

        var bytes = new byte[value.Length];
        var length = 0;
        for (var i = 0; i < value.Length; i++)
        {
            if (value[i] == '%' && i + 2 < value.Length && Hex(value[i + 1]) is var high and >= 0 && Hex(value[i + 2]) is var low and >= 0)
            {
                bytes[length++] = (byte)((high << 4) | low);
                i += 2;
            }
            else
            {
                bytes[length++] = value[i];
            }
        }

        return Encoding.UTF8.GetString(bytes, 0, length);
    }

    private static int Hex(byte c) => c switch
    {
        >= (byte)'0' and <= (byte)'9' => c - '0',
        >= (byte)'a' and <= (byte)'f' => c - 'a' + 10,
        >= (byte)'A' and <= (byte)'F' => c - 'A' + 10,
        _ => -1,
    };
}
