using System.Net.Sockets;
using System.ServiceModel;
using System.Text.RegularExpressions;
using Grpc.Core;

namespace Harness.LoadTests.Scenarios;

/// <summary>Names a failed request's status the same way for both stacks, for the per-status failure counts.</summary>
internal static partial class FailureStatus
{
    public static string Of(Exception exception) => exception switch
    {
        RpcException rpc => ToGrpcName(rpc.StatusCode),
        FaultException fault => fault.Code.IsSenderFault ? "soap-fault-Client" : "soap-fault-Server",

        // WCF names an unexpected HTTP status only in its message: "unexpected response: (413) Payload Too Large".
        ProtocolException protocol when HttpStatusInMessage().Match(protocol.Message) is { Success: true } m => $"http-{m.Groups[1].Value}",
        CommunicationException { InnerException: HttpRequestException { StatusCode: { } status } } => $"http-{(int)status}",
        EndpointNotFoundException or CommunicationException { InnerException: HttpRequestException { InnerException: SocketException } } => "connection",
        HttpRequestException { InnerException: SocketException } => "connection",
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

    [GeneratedRegex(@"\((\d{3})\)")]
    private static partial Regex HttpStatusInMessage();
}
