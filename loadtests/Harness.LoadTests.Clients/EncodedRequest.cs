namespace Harness.LoadTests.Clients;

/// <summary>
/// The last request a client encoded, with the arguments it was encoded from: a run sends the same arguments on every
/// call, so each distinct request is serialized once. Swapped as one reference, so concurrent callers never see one
/// request's arguments with another's bytes; two callers racing on new arguments merely encode them twice.
/// </summary>
/// <typeparam name="TKey">The arguments, compared by value (a byte array: by reference, the same array).</typeparam>
/// <typeparam name="TBody">What the arguments become: the request's bytes, or a stream's messages.</typeparam>
internal sealed record EncodedRequest<TKey, TBody>(TKey Key, TBody Body)
{
    public static TBody Reuse(ref EncodedRequest<TKey, TBody>? last, TKey key, Func<TKey, TBody> encode)
    {
        if (last is { } cached && EqualityComparer<TKey>.Default.Equals(cached.Key, key))
        {
            return cached.Body;
        }

        var fresh = new EncodedRequest<TKey, TBody>(key, encode(key));
        last = fresh;
        return fresh.Body;
    }
}
