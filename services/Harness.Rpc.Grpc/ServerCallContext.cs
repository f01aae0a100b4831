using Microsoft.AspNetCore.Http;

namespace Harness.Rpc.Grpc;

/// <summary>What a server handler knows about the call it is serving.</summary>
/// <remarks>The subset of <c>Grpc.Core.ServerCallContext</c> that unary calls without metadata need.</remarks>
public sealed class ServerCallContext
{
    internal ServerCallContext(string method, DateTime deadline, CancellationToken cancellationToken, HttpContext httpContext)
    {
        Method = method;
        Deadline = deadline;
        CancellationToken = cancellationToken;
        HttpContext = httpContext;
    }

    /// <summary>The full method name, <c>/package.Service/Method</c>.</summary>
    public string Method { get; }

    /// <summary>
    /// The UTC time the client's <c>grpc-timeout</c> runs out, or <see cref="DateTime.MaxValue"/> when it sent none.
    /// </summary>
    public DateTime Deadline { get; }

    /// <summary>Canceled when the client cancels or disconnects, or when <see cref="Deadline"/> passes.</summary>
    public CancellationToken CancellationToken { get; }

    public HttpContext HttpContext { get; }
}
