using System.Net.Sockets;
using Harness.Rpc.Grpc;
using Harness.Rpc.Soap;

namespace Harness.LoadTests.Scenarios;

/// <summary>Names a failed request's status the same way for both stacks, for the per-status failure counts.</summary>
public static class FailureStatus
{
    public static string Of(Exception exception) => exception switch
    {
        RpcException rpc => ToGrpcName(rpc.StatusCode),
        SoapFaultException fault => $"soap-fault-{fault.Code}",
        SoapProtocolException http => $"http-{(int)http.StatusCode}",
        HttpRequestException { InnerException: SocketException } => "connection",
        HttpRequestException => "http-error",
        TimeoutException or TaskCanceledException => "timeout",
        _ => exception.GetType().Name,
    };

    /// <summary>gRPC's canonical names: <c>RESOURCE_EXHAUSTED</c>, <c>UNAVAILABLE</c>...</summary>
    public static string ToGrpcName(GrpcStatusCode code) => code switch
    {
        GrpcStatusCode.OK => "OK",
        GrpcStatusCode.Cancelled => "CANCELLED",
        GrpcStatusCode.Unknown => "UNKNOWN",
        GrpcStatusCode.InvalidArgument => "INVALID_ARGUMENT",
        GrpcStatusCode.DeadlineExceeded => "DEADLINE_EXCEEDED",
        GrpcStatusCode.NotFound => "NOT_FOUND",
        GrpcStatusCode.AlreadyExists => "ALREADY_EXISTS",
        GrpcStatusCode.PermissionDenied => "PERMISSION_DENIED",
        GrpcStatusCode.ResourceExhausted => "RESOURCE_EXHAUSTED",
        GrpcStatusCode.FailedPrecondition => "FAILED_PRECONDITION",
        GrpcStatusCode.Aborted => "ABORTED",
        GrpcStatusCode.OutOfRange => "OUT_OF_RANGE",
        GrpcStatusCode.Unimplemented => "UNIMPLEMENTED",
        GrpcStatusCode.Internal => "INTERNAL",
        GrpcStatusCode.Unavailable => "UNAVAILABLE",
        GrpcStatusCode.DataLoss => "DATA_LOSS",
        GrpcStatusCode.Unauthenticated => "UNAUTHENTICATED",
        _ => ((int)code).ToString(System.Globalization.CultureInfo.InvariantCulture),
    };
}
