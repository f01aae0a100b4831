using Harness.Contracts.Grpc;

namespace Harness.Contracts;

/// <summary>
/// Either stack behind one shape, so tests and the load runner drive SOAP and gRPC alike. Replies use the
/// proto messages; the SOAP client converts into them.
/// </summary>
public interface IHarnessClient : IDisposable
{
    /// <summary><c>soap</c> or <c>grpc</c>.</summary>
    string Stack { get; }

    Task<ComputeReply> ComputeAsync(int iterations, CancellationToken cancellationToken = default);

    Task<CallThirdPartyReply> CallThirdPartyAsync(
        int fanout, int delayMs, string style, int parallelism = 0, CancellationToken cancellationToken = default);
}
