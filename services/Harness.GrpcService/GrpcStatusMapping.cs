using Grpc.Core;
using Harness.Agreements;

namespace Harness.GrpcService;

/// <summary>
/// Turns workload exceptions into gRPC statuses whose detail says what was wrong; without it Grpc.AspNetCore
/// answers every handler exception with <c>UNKNOWN</c> and a generic message. Called from the service's own methods
/// rather than an interceptor: with no interceptor registered (threadpool mode) Grpc.AspNetCore skips its interceptor
/// pipeline, whose three awaiting frames cost about 500 bytes for every call in flight (docs/s1-scale.md).
/// </summary>
internal static class GrpcStatusMapping
{
    /// <summary>The status exception for <paramref name="exception"/>, or null when it is not a workload failure.</summary>
    public static RpcException? Map(Exception exception, ServerCallContext context)
    {
        switch (exception)
        {
            case WorkloadArgumentException ex:
                return new RpcException(new Status(StatusCode.InvalidArgument, ex.Message));
            case HttpRequestException ex:
                return new RpcException(new Status(StatusCode.Unavailable, $"The third party did not answer: {ex.Message}"));
            case OperationCanceledException when context.CancellationToken.IsCancellationRequested:
                return new RpcException(new Status(StatusCode.Cancelled, "The call was cancelled or its deadline passed."));
            case TaskCanceledException ex:
                // HttpClient reports its own timeout as a cancellation the caller did not ask for.
                return new RpcException(new Status(StatusCode.DeadlineExceeded, $"The third party timed out: {ex.Message}"));
            default:
                return null;
        }
    }
}
