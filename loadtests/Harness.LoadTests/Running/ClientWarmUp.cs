using Harness.Agreements;
using Harness.Contracts;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Running;

/// <summary>
/// Before the run's first series, a few calls through each stack's client, not recorded: the runner's own first calls
/// pay for compiling its client paths (serialisation, HTTP/2 or SOAP channels, the load engine's request path) and
/// would otherwise make whichever mode runs first look slower. Every later series finds them compiled.
/// </summary>
internal static class ClientWarmUp
{
    private const int Rounds = 3;

    // A warm-up call that takes longer is not warming anything; --timeout shortens it further.
    private static readonly TimeSpan MaxCallTime = TimeSpan.FromSeconds(10);

    /// <summary>
    /// The cheapest call of each operation of the run (Compute of one iteration, a third-party call of 0 ms that never
    /// leaves the service) through each target's client, so the service does next to no work. A target that fails is
    /// left alone: its series will measure the failure.
    /// </summary>
    public static async Task RunAsync(IReadOnlyList<ServiceTarget> targets, RunOptions options, CancellationToken cancellationToken)
    {
        var bound = options.Measurement.CallTimeout < MaxCallTime ? options.Measurement.CallTimeout : MaxCallTime;
        foreach (var target in targets)
        {
            if (options.Call is not null || options.UserScenarios.Count > 0)
            {
                foreach (var operation in options.Operations)
                {
                    await CallAsync(target, operation, options, bound, cancellationToken);
                }

                continue;
            }

            using var client = TargetClients.For(
                target, options.SoapClient, options.GrpcClient, options.Measurement.CallTimeout, options.Measurement.GivenMaxMessageSize, options.ClientLog.Factory,
                options.Measurement.Tls);
            try
            {
                for (var round = 0; round < Rounds; round++)
                {
                    foreach (var operation in options.Operations)
                    {
                        await BoundedCall.RunAsync(ct => CallAsync(client, operation, ct), bound, cancellationToken);
                    }
                }
            }
            catch (Exception ex) when (!cancellationToken.IsCancellationRequested && ex is not OutOfMemoryException)
            {
                // Not ready or failing: the series say so, with figures.
            }
        }
    }

    /// <summary>A <c>--call</c> or a user scenario: the call itself, as its first request would send it.</summary>
    private static async Task CallAsync(ServiceTarget target, string operation, RunOptions options, TimeSpan bound, CancellationToken cancellationToken)
    {
        using var calls = SeriesCalls.For(operation, target, options);
        try
        {
            for (var round = 0; round < Rounds; round++)
            {
                await BoundedCall.RunAsync(calls.LoneCallAsync, bound, cancellationToken);
            }
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested && ex is not OutOfMemoryException)
        {
            // As for the harness's own operations: the series measure a failing target.
        }
    }

    private static Task CallAsync(IHarnessClient client, string operation, CancellationToken cancellationToken) =>
        operation == Operations.Compute
            ? client.ComputeAsync(1, cancellationToken)
            : client.CallThirdPartyAsync(1, 0, CallStyle.TaskDelay.ToName(), 0, cancellationToken);
}
