using System.Text;

namespace CacheSerializer.Workloads.Generation;

/// <summary>Makes pronounceable pseudo-words and phrases of exact lengths from a <see cref="SeededRandom"/>.</summary>
/// <remarks>
/// A vocabulary is built once from syllables and then drawn from, so text repeats words the way real names and paths do
/// (which compressors see) without being a repeated pattern (which would flatter them).
/// </remarks>
public sealed class WordGenerator
{
    private const string Consonants = "bcdfghjklmnprstvwz";
    private const string Vowels = "aeiou";

    private readonly SeededRandom _random;
    private readonly string[] _vocabulary;

    /// <summary>Creates a generator and its vocabulary.</summary>
    /// <param name="random">The source of randomness, shared with the caller so the whole graph follows one sequence.</param>
    /// <param name="vocabularySize">How many distinct words to draw from.</param>
    public WordGenerator(SeededRandom random, int vocabularySize)
    {
        ArgumentNullException.ThrowIfNull(random);
        ArgumentOutOfRangeException.ThrowIfLessThan(vocabularySize, 1);
        _random = random;
        _vocabulary = new string[vocabularySize];
        for (int i = 0; i < vocabularySize; i++)
        {
            _vocabulary[i] = MakeWord();
        }
    }

    /// <summary>Returns one word of the vocabulary.</summary>
    /// <returns>The word.</returns>
    public string Word() => _vocabulary[_random.Next(0, _vocabulary.Length)];

    /// <summary>Returns words joined by <paramref name="separator"/>, cut to exactly <paramref name="length"/> characters.</summary>
    /// <param name="length">The length of the result, at least 1.</param>
    /// <param name="separator">The character between words.</param>
    /// <returns>The phrase.</returns>
    public string Phrase(int length, char separator)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(length, 1);
        var text = new StringBuilder(length + 12);
        while (text.Length < length)
        {
            if (text.Length > 0)
            {
                text.Append(separator);
            }

            text.Append(Word());
        }

        // A trailing separator left by the cut would be an artifact no real name has.
        text.Length = length;
        if (text[length - 1] == separator)
        {
            text[length - 1] = Vowels[_random.Next(0, Vowels.Length)];
        }

        return text.ToString();
    }

    private string MakeWord()
    {
        int syllables = _random.Next(1, 4);
        var word = new StringBuilder(syllables * 3);
        for (int s = 0; s < syllables; s++)
        {
            word.Append(Consonants[_random.Next(0, Consonants.Length)]);
            word.Append(Vowels[_random.Next(0, Vowels.Length)]);
            if (_random.Chance(0.3))
            {
                word.Append(Consonants[_random.Next(0, Consonants.Length)]);
            }
        }

        return word.ToString();
    }
}
