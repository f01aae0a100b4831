using Docker.DotNet;

namespace Harness.KubeletStandIn.Runtime;

/// <summary>
/// Removes what a run created: every container, network and volume labelled with its run id, and its temporary
/// folder; on success, on failure and after Ctrl+C/SIGTERM alike. Bounded in time: a clean-up that hangs prints the
/// commands that finish it by hand.
/// </summary>
internal static class Cleanup
{
    private static readonly TimeSpan Bound = TimeSpan.FromMinutes(2);

    public static async Task RunAsync(DockerRuntime docker, string temporaryDirectory, RunLog log)
    {
        string? problem;
        try
        {
            problem = await docker.RemoveRunAsync().WaitAsync(Bound);
        }
        catch (Exception ex) when (ex is TimeoutException or DockerApiException or HttpRequestException or IOException)
        {
            problem = ex.Message;
        }

        try
        {
            Directory.Delete(temporaryDirectory, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            problem = (problem is null ? "" : problem + "; ") + $"{temporaryDirectory}: {ex.Message}";
        }

        if (problem is null)
        {
            log.Line($"removed the containers, networks and volumes of run {docker.RunId}");
        }
        else
        {
            log.Warning($"the clean-up did not finish ({problem}); finish it with: {ByHand(docker.RunId)}");
        }
    }

    public static string ByHand(string runId) =>
        $"docker rm -f $(docker ps -aq -f label={DockerRuntime.RunLabel}={runId}); " +
        $"docker network rm $(docker network ls -q -f label={DockerRuntime.RunLabel}={runId}); " +
        $"docker volume rm $(docker volume ls -q -f label={DockerRuntime.RunLabel}={runId})";
}
