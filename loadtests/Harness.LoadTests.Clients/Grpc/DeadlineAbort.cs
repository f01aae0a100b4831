using Grpc.Core;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// Grpc.Net.Client ends a call at its deadline by aborting the HTTP request, and a read that was waiting on the
/// response may see the abort before the call's deadline status is set: it then fails UNAVAILABLE ("Error reading
/// next message. IOException: The request was aborted."), as grpc-dotnet's maintainers explain such reports. Seen on
/// streams that outlive their deadline, a few calls in a hundred. Such a call failed at its deadline, and is counted so.
/// </summary>
internal static class DeadlineAbort
{
    /// <summary>True for an UNAVAILABLE thrown once <paramref name="deadline"/> (UTC) has passed.</summary>
    public static bool IsDeadline(RpcException exception, DateTime deadline) =>
        exception.StatusCode == StatusCode.Unavailable && DateTime.UtcNow >= deadline;

    /// <summary>The call's failure as its deadline's: DEADLINE_EXCEEDED, the client's own report kept in the detail.</summary>
    public static RpcException AsDeadline(RpcException exception) =>
        new(new Status(StatusCode.DeadlineExceeded, $"the deadline passed, and the client read the call's abort first: {exception.Status.Detail}", exception));
}
