namespace Harness.LoadTests.Engine;

/// <summary>What one request of a scenario returned: success, or a failure with a status code to count it under.</summary>
public readonly record struct StepResult(bool IsSuccess, string? StatusCode)
{
    public static StepResult Ok() => new(true, null);

    public static StepResult Fail(string statusCode) => new(false, statusCode);
}
