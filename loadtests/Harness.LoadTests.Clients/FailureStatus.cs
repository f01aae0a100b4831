using System.Net.Sockets;
using System.ServiceModel;
using System.Text.RegularExpressions;
using Grpc.Core;

namespace Harness.LoadTests.Clients;

/// <summary>
/// Names a failed request's status the same way for both stacks and every client, for the per-status failure counts,
/// and says which failures are the connection's (the engine backs off from those).
/// </summary>
public static partial class FailureStatus
{
    /// <summary>
    /// True when no connection could be made or the one in use broke (refused, reset, unreachable), or the client had
    /// to close it because of what the server sent (bytes that are not HTTP, a reply cut short, a reply past the
    /// client's bounds): WCF's <see cref="EndpointNotFoundException"/>, an HTTP call that failed on its socket or its
    /// framing, and gRPC's UNAVAILABLE when a socket error or a failed connection lies under it. Each makes the engine
    /// back off (the runner's step marks it so), so a server that breaks every connection is not met with thousands of
    /// new ones a second. A reply that reports an error (a fault, an HTTP status, a gRPC status the server sent) is not one: the target is up.
    /// </summary>
    public static bool IsConnectionFailure(Exception exception) => exception switch
    {
        EndpointNotFoundException => true,
        _ when IsTlsHandshakeFailure(exception) => true,
        RpcException { StatusCode: StatusCode.Unavailable } rpc => rpc.Status.DebugException is { } cause && BrokeOnConnection(cause, closedByClient: false),
        RpcException => false,
        HttpRequestException or CommunicationException => BrokeOnConnection(exception, closedByClient: true),
        _ => false,
    };

    /// <summary>The status a failed request is counted under: gRPC's canonical name, a fault's code, <c>http-503</c>, <c>timeout</c>...</summary>
    public static string Of(Exception exception) => exception switch
    {
        // Named alike for every client and stack (Grpc.Net.Client says INTERNAL, the lean client UNAVAILABLE).
        _ when IsTlsHandshakeFailure(exception) => "tls-handshake",
        RpcException rpc => ToGrpcName(rpc.StatusCode),
        CallFailedException failed => failed.Status,
        FaultException fault => fault.Code.IsSenderFault ? "soap-fault-Client" : "soap-fault-Server",

        // WCF names an unexpected HTTP status only in its message: "unexpected response: (413) Payload Too Large".
        ProtocolException protocol when HttpStatusInMessage().Match(protocol.Message) is { Success: true } m => $"http-{m.Groups[1].Value}",
        CommunicationException { InnerException: HttpRequestException { StatusCode: { } status } } => $"http-{(int)status}",
        EndpointNotFoundException or CommunicationException { InnerException: HttpRequestException { InnerException: SocketException } } => "connection",
        HttpRequestException { InnerException: SocketException } => "connection",

        // A reply past a bound of the client (its head, interim responses, its body's size): HttpClient's and the runner's own HTTP/1.1 client's.
        HttpRequestException { HttpRequestError: HttpRequestError.ConfigurationLimitExceeded } => "response-too-large",
        HttpRequestException => "http-error",
        TimeoutException or TaskCanceledException => "timeout",
        CommunicationException => "soap-communication",
        _ => exception.GetType().Name,
    };

    /// <summary>gRPC's canonical names: <c>RESOURCE_EXHAUSTED</c>, <c>UNAVAILABLE</c>...</summary>
    public static string ToGrpcName(StatusCode code) => code switch
    {
        StatusCode.OK => "OK",
        StatusCode.Cancelled => "CANCELLED",
        StatusCode.Unknown => "UNKNOWN",
        StatusCode.InvalidArgument => "INVALID_ARGUMENT",
        StatusCode.DeadlineExceeded => "DEADLINE_EXCEEDED",
        StatusCode.NotFound => "NOT_FOUND",
        StatusCode.AlreadyExists => "ALREADY_EXISTS",
        StatusCode.PermissionDenied => "PERMISSION_DENIED",
        StatusCode.ResourceExhausted => "RESOURCE_EXHAUSTED",
        StatusCode.FailedPrecondition => "FAILED_PRECONDITION",
        StatusCode.Aborted => "ABORTED",
        StatusCode.OutOfRange => "OUT_OF_RANGE",
        StatusCode.Unimplemented => "UNIMPLEMENTED",
        StatusCode.Internal => "INTERNAL",
        StatusCode.Unavailable => "UNAVAILABLE",
        StatusCode.DataLoss => "DATA_LOSS",
        StatusCode.Unauthenticated => "UNAUTHENTICATED",
        _ => ((int)code).ToString(System.Globalization.CultureInfo.InvariantCulture),
    };

    /// <summary>
    /// No TLS session: the server's certificate was not trusted, the server refused the client's, ALPN found no
    /// protocol, or the handshake did not finish within the connect bound. No connection was made, so it backs off.
    /// </summary>
    public static bool IsTlsHandshakeFailure(Exception exception)
    {
        for (var (e, depth) = (exception, 0); e is not null && depth < 16; e = e is RpcException rpc ? rpc.Status.DebugException : e.InnerException, depth++)
        {
            if (e is System.Security.Authentication.AuthenticationException or HttpRequestException { HttpRequestError: HttpRequestError.SecureConnectionError })
            {
                return true;
            }
        }

        return false;
    }

    /// <param name="closedByClient">
    /// An HTTP/1.1 exchange (SOAP): a reply that is not HTTP, cut short or past a bound leaves its connection unusable,
    /// so the client closes it. Under gRPC (HTTP/2) such a reply fails one stream and the connection goes on: only a
    /// socket error or a failed connection counts there.
    /// </param>
    private static bool BrokeOnConnection(Exception exception, bool closedByClient)
    {
        // Bounded: exception chains are short, but a cycle must not hang a request's path.
        for (var (e, depth) = (exception, 0); e is not null && depth < 16; e = e.InnerException, depth++)
        {
            if (e is SocketException or HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError }
                || (closedByClient && e is HttpRequestException
                {
                    HttpRequestError: HttpRequestError.InvalidResponse or HttpRequestError.ResponseEnded or HttpRequestError.ConfigurationLimitExceeded,
                }))
            {
                return true;
            }
        }

        return false;
    }

    [GeneratedRegex(@"\((\d{3})\)")]
    private static partial Regex HttpStatusInMessage();
}
