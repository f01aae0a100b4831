using Harness.Contracts;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Running;

/// <summary>
/// What a series sends, and through which client: one of the harness's own operations over its typed client, a
/// <c>--call</c> over a byte-level one, or a scenario of the user's own (<c>HarnessApp</c>) with whatever its step
/// calls. Everything else about a series (the load, the recording, the ideal measured with lone calls after the load)
/// is the same for all three.
/// </summary>
internal abstract class SeriesCalls : IDisposable
{
    /// <summary>The series' parameters, as run.json and the report show them.</summary>
    public abstract IReadOnlyDictionary<string, string> Parameters { get; }

    /// <summary>The ideal known before any call (CallThirdParty's), else null: measured after the load.</summary>
    public abstract Ideal? IdealByConstruction { get; }

    /// <summary>True when a lone call is all CPU, so its time gives an ideal throughput too (Compute; not another service's method).</summary>
    public abstract bool IsCpuBound { get; }

    public static SeriesCalls For(string operation, ServiceTarget target, RunOptions options) =>
        options.UserScenarios.FirstOrDefault(s => s.Name == operation) is { } scenario ? new UserScenario(scenario, target, options.Measurement.CallTimeout)
        : options.Call is { } call ? new AnyCall(call, target, options.Measurement.CallTimeout, options.ClientLog.Factory)
        : new OwnOperation(operation, target, options.Settings, options.SoapClient, options.GrpcClient, options.Measurement, options.ClientLog.Factory);

    public abstract Scenario Scenario(string name, IReadOnlyList<LoadSimulation> stages, FirstFailures firstFailures);

    /// <summary>One call alone, as the ideal's lone calls and the runner's warm-up make it; throws when it fails.</summary>
    public abstract Task LoneCallAsync(CancellationToken cancellationToken);

    public abstract void Dispose();

    private sealed class OwnOperation(
        string operation, ServiceTarget target, OperationSettings settings, string soapClient, string grpcClient, MeasurementSettings measurement, ILoggerFactory loggers)
        : SeriesCalls
    {
        private readonly IHarnessClient _client = TargetClients.For(
            target, soapClient, grpcClient, measurement.CallTimeout, measurement.GivenMaxMessageSize, loggers, measurement.Tls);

        public override IReadOnlyDictionary<string, string> Parameters => TargetClients.Named(settings.For(operation), target, soapClient, grpcClient);

        public override Ideal? IdealByConstruction => Calibration.ByConstruction(operation, settings);

        public override bool IsCpuBound => true;

        public override Scenario Scenario(string name, IReadOnlyList<LoadSimulation> stages, FirstFailures firstFailures) =>
            operation == Operations.Compute
                ? ComputeScenario.Create(name, _client, settings, stages, firstFailures)
                : CallThirdPartyScenario.Create(name, _client, settings, stages, firstFailures);

        // Only Compute's ideal is measured with lone calls (CallThirdParty's is known by construction).
        public override Task LoneCallAsync(CancellationToken cancellationToken) => _client.ComputeAsync(settings.Iterations, cancellationToken);

        public override void Dispose() => _client.Dispose();
    }

    private sealed class AnyCall(CallPlan call, ServiceTarget target, TimeSpan timeout, ILoggerFactory loggers) : SeriesCalls
    {
        private readonly ICallClient _client = call.NewClient(target.ServiceAddress, timeout, loggers);

        public override IReadOnlyDictionary<string, string> Parameters => call.Parameters;

        public override Ideal? IdealByConstruction => null;

        public override bool IsCpuBound => false;

        public override Scenario Scenario(string name, IReadOnlyList<LoadSimulation> stages, FirstFailures firstFailures) =>
            CallScenario.Create(name, _client, call.Body, stages, firstFailures);

        public override Task LoneCallAsync(CancellationToken cancellationToken) => _client.SendAsync(call.Body.For(1, 1), cancellationToken);

        public override void Dispose() => _client.Dispose();
    }

    private sealed class UserScenario(Scenario scenario, ServiceTarget target, TimeSpan timeout) : SeriesCalls
    {
        private readonly Func<ScenarioContext, Task<StepResult>> _step = GuardedStep.WithDeadline(scenario.Run, timeout);

        public override IReadOnlyDictionary<string, string> Parameters { get; } = new Dictionary<string, string>();

        public override Ideal? IdealByConstruction => null;

        public override bool IsCpuBound => false;

        // The step sees the series' target, so that one scenario loads each mode's service in turn; the engine puts it
        // in each request's context.
        public override Scenario Scenario(string name, IReadOnlyList<LoadSimulation> stages, FirstFailures firstFailures) =>
            GuardedStep.Create(name, stages, firstFailures, _step) with { Target = target.Address };

        public override async Task LoneCallAsync(CancellationToken cancellationToken)
        {
            var result = await _step(new ScenarioContext(0, 0, cancellationToken) { Target = target.Address });
            if (!result.IsSuccess)
            {
                throw new InvalidOperationException($"{scenario.Name} failed with {result.StatusCode}");
            }
        }

        public override void Dispose()
        {
            // The step's clients are the user's to dispose.
        }
    }
}
