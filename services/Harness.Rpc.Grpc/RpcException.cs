namespace Harness.Rpc.Grpc;

/// <summary>
/// A call that ended with a status other than <see cref="GrpcStatusCode.OK"/>. A server handler throws it to
/// choose the status its caller sees; <see cref="GrpcUnaryClient"/> throws it for every failed call.
/// </summary>
/// <remarks>The counterpart of <c>Grpc.Core.RpcException</c>, without metadata trailers.</remarks>
public sealed class RpcException : Exception
{
    public RpcException(GrpcStatusCode statusCode, string detail)
        : base($"Status(StatusCode=\"{statusCode}\", Detail=\"{detail}\")")
    {
        StatusCode = statusCode;
        Detail = detail;
    }

    internal RpcException(GrpcStatusCode statusCode, string detail, Exception? innerException)
        : base($"Status(StatusCode=\"{statusCode}\", Detail=\"{detail}\")", innerException)
    {
        StatusCode = statusCode;
        Detail = detail;
    }

    public GrpcStatusCode StatusCode { get; }

    /// <summary>The status message (<c>grpc-message</c>), already percent-decoded; empty when there was none.</summary>
    public string Detail { get; }
}
