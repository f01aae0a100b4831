namespace Harness.LoadTests.Engine;

/// <summary>Runs one scenario's load, as NBomber's runner runs a scenario; docs/load-engine.md describes the behaviour.</summary>
public static class LoadRunner
{
    /// <summary>The status of a request the drain gave up on: still in flight when <see cref="LoadRunnerOptions.DrainTimeout"/> ran out.</summary>
    public const string InFlightAtEndStatus = "in-flight-at-end";

    /// <summary>
    /// Drives <paramref name="scenario"/> through its stages, reporting every request and every second to
    /// <paramref name="observer"/>, then waits for requests in flight (up to <see cref="LoadRunnerOptions.DrainTimeout"/>)
    /// and cancels the rest, each counted as a failure of <see cref="InFlightAtEndStatus"/>.
    /// </summary>
    /// <param name="cancellationToken">Stops the run promptly: requests in flight are cancelled and not counted, and the
    /// result says <see cref="ScenarioResult.Cancelled"/>; the task does not throw for it.</param>
    /// <exception cref="ArgumentException">Thrown at once (not through the task) when a stage or option breaks a limit,
    /// the stage list is empty, or closed and open stages are mixed.</exception>
    public static Task<ScenarioResult> RunAsync(
        Scenario scenario,
        ILoadObserver observer,
        LoadRunnerOptions options,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(observer);
        ArgumentNullException.ThrowIfNull(options);
        if (string.IsNullOrWhiteSpace(scenario.Name))
        {
            throw new ArgumentException("A scenario needs a name.", nameof(scenario));
        }

        if (scenario.Run is null)
        {
            throw new ArgumentException($"Scenario '{scenario.Name}' has no Run function.", nameof(scenario));
        }

        Validate(scenario.Name, options);
        var plan = LoadPlan.Create(scenario.Name, scenario.Simulations);
        return new ScenarioRun(scenario, plan, observer, options).RunAsync(cancellationToken);
    }

    private static void Validate(string scenario, LoadRunnerOptions options)
    {
        if (options.MaxFailures < 1)
        {
            throw new ArgumentException(
                $"Scenario '{scenario}': MaxFailures must be at least 1, was {options.MaxFailures}.", nameof(options));
        }

        if (options.DrainTimeout < TimeSpan.Zero && options.DrainTimeout != Timeout.InfiniteTimeSpan)
        {
            throw new ArgumentException(
                $"Scenario '{scenario}': DrainTimeout must be zero or more (or infinite), was {options.DrainTimeout}.", nameof(options));
        }

        if (options.Backoff is { } backoff)
        {
            if (backoff.Initial <= TimeSpan.Zero)
            {
                throw new ArgumentException(
                    $"Scenario '{scenario}': Backoff.Initial must be greater than zero, was {backoff.Initial}; set Backoff to null to retry at once.",
                    nameof(options));
            }

            if (backoff.Max < backoff.Initial)
            {
                throw new ArgumentException(
                    $"Scenario '{scenario}': Backoff.Max must be at least Backoff.Initial ({backoff.Initial}), was {backoff.Max}.", nameof(options));
            }
        }

        if (options.MaxOpenRequestsInFlight < 1)
        {
            throw new ArgumentException(
                $"Scenario '{scenario}': MaxOpenRequestsInFlight must be at least 1, was {options.MaxOpenRequestsInFlight}.", nameof(options));
        }
    }
}
