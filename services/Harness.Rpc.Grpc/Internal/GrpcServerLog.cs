using Microsoft.Extensions.Logging;

namespace Harness.Rpc.Grpc.Internal;

internal static partial class GrpcServerLog
{
    [LoggerMessage(1, LogLevel.Information, "Call to '{Method}' ended with status {StatusCode}: {Detail}")]
    public static partial void RpcError(ILogger logger, string method, GrpcStatusCode statusCode, string detail);

    [LoggerMessage(2, LogLevel.Error, "Error when executing service method '{Method}'.")]
    public static partial void HandlerFailed(ILogger logger, string method, Exception exception);

    [LoggerMessage(3, LogLevel.Debug, "Request content-type '{ContentType}' is not supported.")]
    public static partial void UnsupportedContentType(ILogger logger, string? contentType);

    [LoggerMessage(4, LogLevel.Debug, "Request protocol '{Protocol}' is not supported.")]
    public static partial void UnsupportedProtocol(ILogger logger, string protocol);

    [LoggerMessage(5, LogLevel.Debug, "Deadline of '{Method}' exceeded; sending DEADLINE_EXCEEDED and resetting the stream.")]
    public static partial void DeadlineExceeded(ILogger logger, string? method);

    [LoggerMessage(6, LogLevel.Warning, "Error while ending a call whose deadline passed.")]
    public static partial void DeadlineResponseFailed(ILogger logger, Exception exception);

    [LoggerMessage(7, LogLevel.Information, "Unimplemented method or service '{Path}'.")]
    public static partial void Unimplemented(ILogger logger, string? path);

    [LoggerMessage(8, LogLevel.Debug, "Ignoring invalid grpc-timeout '{Value}'.")]
    public static partial void InvalidTimeout(ILogger logger, string? value);
}
