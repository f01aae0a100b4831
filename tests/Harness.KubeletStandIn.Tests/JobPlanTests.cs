using Harness.KubeletStandIn.Controllers;
using Harness.KubeletStandIn.Pods;
using Harness.KubeletStandIn.Tests.Tooling;

namespace Harness.KubeletStandIn.Tests;

public sealed class JobPlanTests
{
    [Fact]
    public void Indexed_StartsEachIndexOnce_UpToParallelism_AndRetriesAFailedIndex()
    {
        var plan = new JobPlan(completions: 3, parallelism: 2, indexed: true, backoffLimit: 1);
        Assert.Equal(0, plan.Next());
        plan.Started(0);
        Assert.Equal(1, plan.Next());
        plan.Started(1);
        Assert.Null(plan.Next()); // parallelism 2

        plan.Fail(1);
        Assert.False(plan.BackoffLimitExceeded);
        Assert.Equal(TimeSpan.FromSeconds(10), plan.RetryDelay);
        Assert.Equal(1, plan.Next()); // the failed index again, before index 2
        plan.Started(1);
        plan.Succeed(0);
        Assert.Equal(2, plan.Next());
        plan.Started(2);
        plan.Succeed(1);
        plan.Succeed(2);
        Assert.True(plan.Complete);
        Assert.Null(plan.Next());
    }

    [Fact]
    public void BackoffLimit_FailsTheJobWhenMorePodsThanItFailed()
    {
        var plan = new JobPlan(completions: 1, parallelism: 1, indexed: false, backoffLimit: 0);
        plan.Started(plan.Next()!.Value);
        plan.Fail(0);
        Assert.True(plan.BackoffLimitExceeded);
        Assert.Null(plan.Next());
    }

    [Fact]
    public void Defaults_AreTheApiServers()
    {
        var plan = new JobPlan(completions: null, parallelism: null, indexed: false, backoffLimit: null);
        Assert.Equal((1, 1, 6), (plan.Completions, plan.Parallelism, plan.BackoffLimit));
        Assert.Equal(3, new JobPlan(3, 10, true, 0).Parallelism); // never more pods at once than completions
        Assert.Equal(0, new JobPlan(3, 0, true, 0).Parallelism);
    }

    [Fact]
    public void RetryDelay_DoublesUpToSixMinutes()
    {
        var plan = new JobPlan(completions: 1, parallelism: 1, indexed: false, backoffLimit: 100);
        var delays = new List<double>();
        for (var i = 0; i < 8; i++)
        {
            plan.Started(0);
            plan.Fail(0);
            delays.Add(plan.RetryDelay.TotalSeconds);
        }

        Assert.Equal([10, 20, 40, 80, 160, 320, 360, 360], delays);
    }

    [Fact]
    public void IndexedPods_CarryTheIndexAsAnnotationLabelAndHostname()
    {
        var workload = Yaml.Parse(Yaml.Job("agents", "[run]", completionMode: "Indexed", completions: 2)).Workloads.Single();
        var pod = PodIdentity.ForJob(workload, "uid", 1);

        Assert.Equal("1", pod.Annotations[PodIdentity.CompletionIndexKey]);
        Assert.Equal("1", pod.Labels[PodIdentity.CompletionIndexKey]);
        Assert.Equal("agents", pod.Labels["job-name"]);
        Assert.Equal("agents-1", pod.Hostname);
        Assert.Matches("^agents-1-[a-z0-9]{5}$", pod.Name);
        Assert.Equal("1", EnvResolver.Field($"metadata.annotations['{PodIdentity.CompletionIndexKey}']", pod.Facts(null, null, null)));
    }

    [Fact]
    public void DeploymentPods_AreNamedLikeAReplicaSets()
    {
        var workload = Yaml.Parse("""
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: stub}
            spec:
              selector: {matchLabels: {app: stub}}
              template:
                metadata: {labels: {app: stub}}
                spec: {containers: [{name: stub, image: harness/stub:local}]}
            """).Workloads.Single();
        var pod = PodIdentity.ForDeployment(workload);
        Assert.Matches("^stub-[a-z0-9]{10}-[a-z0-9]{5}$", pod.Name);
        Assert.Equal("stub", pod.Labels["app"]);
        Assert.Equal(pod.Labels["pod-template-hash"], PodIdentity.ForDeployment(workload).Labels["pod-template-hash"]);
    }
}
