/**
 * A generated catalog of model-hub shape: tools named like repository ids (`org/model-name`), long
 * model-card descriptions full of shared boilerplate, and short requests with known answers. Deterministic from
 * a seed, from this file's own invented vocabulary (nothing is fetched). Seed `TUNING_SEED` and the
 * `MORE_TUNING_SEEDS` are the sets rules are tuned on; `HOLDOUT_SEED` is held back and only checked.
 */

/** The set ranking rules may be tuned on. */
export const TUNING_SEED = 29;
/** The held-back set: looked at once per rule, after the rule was settled on the tuning sets. */
export const HOLDOUT_SEED = 2029;
/**
 * More tuning sets, reported as their mean: one set of 500 requests moves by a point of R@5 from seed to seed,
 * more than most rules change, so a rule is settled on these and `TUNING_SEED` together.
 */
export const MORE_TUNING_SEEDS: readonly number[] = Object.freeze([1, 2, 3, 4, 5, 6, 7, 8]);

/** One model of the hub, as a tool. */
export type HubModel = { name: string; description: string };
/** One request and the models that serve it (any order; all count for recall). */
export type HubQuery = { id: string; query: string; gold: string[] };

type Task = {
  key: string;
  /** Words for the model name. */
  nameTokens: readonly string[];
  /** What the card says the model does. */
  card: readonly string[];
  /** How a user asks for it; `{lang}` and `{domain}` are filled in. */
  requests: readonly string[];
  /** Whether the model is for one language (`{lang}` is then in every request). */
  language: boolean;
  /** Whether the model may be tuned for a domain. */
  domain: boolean;
};

const TASKS: readonly Task[] = [
  {
    key: "sentiment",
    nameTokens: ["sentiment", "polarity"],
    card: [
      "classifies the sentiment of a text as positive, negative or neutral",
      "predicts sentiment polarity",
    ],
    requests: [
      "sentiment analysis of {lang} {domain}",
      "is this {lang} {domain} positive or negative",
      "detect the mood of {lang} {domain}",
    ],
    language: true,
    domain: true,
  },
  {
    key: "summarization",
    nameTokens: ["summarizer", "sum"],
    card: ["produces abstractive summaries of long documents", "generates a short summary of an input text"],
    requests: [
      "summarize {lang} {domain}",
      "make a short summary of long {lang} {domain}",
      "condense {lang} {domain} into a few sentences",
    ],
    language: true,
    domain: true,
  },
  {
    key: "ner",
    nameTokens: ["ner", "entities"],
    card: [
      "performs named entity recognition, tagging persons, organisations and locations",
      "is a token classification model that finds entity spans",
    ],
    requests: [
      "extract names of people and companies from {lang} {domain}",
      "named entity recognition for {lang} {domain}",
      "find organisations and places mentioned in {lang} {domain}",
    ],
    language: true,
    domain: true,
  },
  {
    key: "qa",
    nameTokens: ["qa", "reader"],
    card: [
      "answers questions by extracting a span from a context passage",
      "is an extractive question answering model",
    ],
    requests: ["answer questions about {lang} {domain}", "question answering over {lang} {domain}"],
    language: true,
    domain: true,
  },
  {
    key: "asr",
    nameTokens: ["asr", "speech"],
    card: [
      "does automatic speech recognition: it transcribes spoken audio into text",
      "converts recorded speech to written transcripts",
    ],
    requests: [
      "transcribe {lang} audio recordings",
      "speech to text for {lang}",
      "turn {lang} voice notes into text",
    ],
    language: true,
    domain: false,
  },
  {
    key: "tts",
    nameTokens: ["tts", "voice"],
    card: [
      "does text-to-speech synthesis, producing natural sounding audio from text",
      "synthesises a spoken voice from written text",
    ],
    requests: ["read {lang} text aloud", "text to speech in {lang}", "generate a {lang} voice from text"],
    language: true,
    domain: false,
  },
  {
    key: "image-classification",
    nameTokens: ["imgcls", "vision-classifier"],
    card: ["does image classification: it assigns a label to a picture", "classifies photos into categories"],
    requests: [
      "classify photos of {domain}",
      "label pictures of {domain}",
      "which category is this image of {domain}",
    ],
    language: false,
    domain: true,
  },
  {
    key: "detection",
    nameTokens: ["detector", "det"],
    card: [
      "does object detection: it draws bounding boxes around objects in images",
      "locates and labels objects in a picture",
    ],
    requests: [
      "detect objects in images of {domain}",
      "draw boxes around things in {domain} photos",
      "locate items in pictures of {domain}",
    ],
    language: false,
    domain: true,
  },
  {
    key: "segmentation",
    nameTokens: ["seg", "segmenter"],
    card: [
      "does semantic segmentation: it labels every pixel of an image with a class",
      "produces pixel masks for regions of an image",
    ],
    requests: ["segment {domain} images pixel by pixel", "pixel masks for {domain} pictures"],
    language: false,
    domain: true,
  },
  {
    key: "embeddings",
    nameTokens: ["embed", "sentence-vectors"],
    card: [
      "maps sentences to dense vectors for semantic similarity and retrieval",
      "computes sentence embeddings for clustering and semantic search",
    ],
    requests: [
      "embed {lang} sentences for semantic search",
      "vectors for {lang} text similarity",
      "find similar {lang} {domain} by meaning",
    ],
    language: true,
    domain: true,
  },
  {
    key: "code",
    nameTokens: ["coder", "code"],
    card: ["generates source code from natural language instructions", "completes and writes programs"],
    requests: ["write code from a description", "generate a function that sorts a list", "code completion"],
    language: false,
    domain: false,
  },
  {
    key: "ocr",
    nameTokens: ["ocr", "doc-reader"],
    card: [
      "does optical character recognition: it reads printed and handwritten text in scanned documents",
      "extracts text from images of pages",
    ],
    requests: [
      "read text from scanned {lang} {domain}",
      "ocr for {lang} {domain}",
      "get the words out of a photo of a {lang} page",
    ],
    language: true,
    domain: true,
  },
  {
    key: "captioning",
    nameTokens: ["captioner", "cap"],
    card: [
      "does image captioning: it writes a sentence describing a picture",
      "describes the content of an image in words",
    ],
    requests: ["describe {domain} photos in a sentence", "write captions for pictures of {domain}"],
    language: false,
    domain: true,
  },
  {
    key: "toxicity",
    nameTokens: ["toxic", "moderation"],
    card: [
      "flags toxic, abusive or hateful language",
      "is a content moderation classifier for offensive text",
    ],
    requests: [
      "flag abusive comments in {lang} {domain}",
      "detect hate speech in {lang}",
      "moderate offensive {lang} {domain}",
    ],
    language: true,
    domain: true,
  },
  {
    key: "langid",
    nameTokens: ["langid", "lang-detect"],
    card: [
      "does language identification: it tells which language a text is written in",
      "detects the language of a sentence",
    ],
    requests: ["which language is this text in", "identify the language of a sentence", "language detection"],
    language: false,
    domain: false,
  },
  {
    key: "translation",
    nameTokens: ["mt", "translator"],
    card: ["does machine translation from {lang} into English", "translates {lang} text into English"],
    requests: [
      "translate {lang} to English",
      "turn {lang} text into English",
      "{lang} to English translation",
    ],
    language: true,
    domain: false,
  },
];

/** `[code, name]`: the code goes into model names, the name into cards and requests. */
const LANGUAGES: ReadonlyArray<readonly [string, string]> = [
  ["en", "English"],
  ["de", "German"],
  ["fr", "French"],
  ["es", "Spanish"],
  ["ja", "Japanese"],
  ["zh", "Chinese"],
  ["ar", "Arabic"],
  ["ru", "Russian"],
  ["pt", "Portuguese"],
  ["hi", "Hindi"],
  ["ko", "Korean"],
  ["it", "Italian"],
  ["nl", "Dutch"],
  ["tr", "Turkish"],
  ["sv", "Swedish"],
];

/** `[name token, what the card says it was tuned on, how a request names it]`. */
const DOMAINS: ReadonlyArray<readonly [string, string, string]> = [
  ["fin", "financial news and earnings call transcripts", "financial news"],
  ["bio", "biomedical abstracts and clinical notes", "clinical notes"],
  ["legal", "court rulings and contracts", "legal contracts"],
  ["tweets", "social media posts", "tweets"],
  ["reviews", "product reviews from online shops", "product reviews"],
  ["news", "newspaper articles", "news articles"],
  ["sci", "scientific papers", "research papers"],
  ["support", "customer support tickets", "support tickets"],
  ["food", "recipes and dishes", "food"],
  ["satellite", "aerial and satellite imagery", "satellite"],
  ["xray", "chest x-ray scans", "x-ray"],
  ["retail", "shelf and store photographs", "store shelves"],
];

const ORGS = [
  "lumen-labs",
  "northwind-ai",
  "quarkfield",
  "tessel",
  "brightpath",
  "openvale",
  "corvid-research",
  "mistwood",
  "kelp-ai",
  "saltmarsh",
  "ironbark",
  "fennec-ml",
  "glasswing",
  "harbor-nlp",
  "pinecrest",
  "amberline",
  "zephyr-works",
  "stonefly",
  "marigold-ai",
  "juniper-lab",
];
const ARCHITECTURES = [
  "quill",
  "lyra",
  "ferro",
  "tern",
  "nimbus",
  "vela",
  "orrin",
  "sable",
  "wren",
  "cobalt",
];
const SIZES = ["tiny", "small", "base", "large", "xl"];
const DATASETS = ["OpenCorpus-2", "WebMix", "HubText-v3", "CommonPages", "ManyBooks"];

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Model = HubModel & { task: Task; lang?: string; domain?: string };

/** Generates `models` models and `queries` requests from `seed`. */
export function generateModelHub(
  seed: number,
  sizes: { models: number; queries: number } = { models: 800, queries: 500 },
): { models: HubModel[]; queries: HubQuery[] } {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const models: Model[] = [];
  const names = new Set<string>();
  while (models.length < sizes.models) {
    const task = pick(TASKS);
    const language = task.language && next() < 0.85 ? pick(LANGUAGES) : undefined;
    const domain = task.domain && next() < 0.6 ? pick(DOMAINS) : undefined;
    const org = pick(ORGS);
    const architecture = pick(ARCHITECTURES);
    const size = pick(SIZES);
    const parts = [architecture, size, domain?.[0], pick(task.nameTokens), language?.[0]];
    if (next() < 0.3) parts.reverse();
    const name = `${org}/${parts.filter((part) => part !== undefined).join("-")}`;
    if (names.has(name)) continue;
    names.add(name);
    models.push({
      name,
      description: card(name, org, architecture, size, task, language, domain, pick, next),
      task,
      ...(language ? { lang: language[1] } : {}),
      ...(domain ? { domain: domain[2] } : {}),
    });
  }
  const queries: HubQuery[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; queries.length < sizes.queries && attempt < sizes.queries * 20; attempt += 1) {
    const target = pick(models);
    const template = pick(target.task.requests);
    const needsLang = template.includes("{lang}");
    const needsDomain = template.includes("{domain}");
    if (needsLang && !target.lang) continue;
    if (needsDomain && !target.domain) continue;
    const query = template
      .replace("{lang}", target.lang ?? "")
      .replace("{domain}", target.domain ?? "")
      .replace(/\s+/g, " ")
      .trim();
    if (seen.has(query)) continue;
    const gold = models
      .filter(
        (model) =>
          model.task === target.task &&
          (!needsLang || model.lang === target.lang) &&
          (!needsDomain || model.domain === target.domain),
      )
      .map((model) => model.name);
    // Requests with a handful of answers: a request that many models serve says little about ranking.
    if (gold.length > 4) continue;
    seen.add(query);
    queries.push({ id: `hub-${seed}-${queries.length + 1}`, query, gold });
  }
  return { models: models.map(({ name, description }) => ({ name, description })), queries };
}

function card(
  name: string,
  org: string,
  architecture: string,
  size: string,
  task: Task,
  language: readonly [string, string] | undefined,
  domain: readonly [string, string, string] | undefined,
  pick: <T>(list: readonly T[]) => T,
  next: () => number,
): string {
  const languageName = language?.[1] ?? "English";
  const does = pick(task.card).replace("{lang}", languageName);
  const others = TASKS.filter((other) => other !== task);
  const lines = [
    `# ${name}`,
    "",
    `This model is a fine-tuned version of ${org}/${architecture}-${size} on the ${pick(DATASETS)} dataset. It ${does}.`,
    domain
      ? `It was fine-tuned on ${domain[1]}.`
      : "It was trained on general-purpose text and images from the web.",
    language ? `It works on ${language[1]} (${language[0]}) input.` : "",
    "",
    "## Model description",
    `${architecture} is a transformer model pre-trained on a large corpus in a self-supervised fashion. The ${size} checkpoint has ${Math.round(20 + next() * 900)} million parameters.`,
    next() < 0.4
      ? `See also our other checkpoints: one that ${pick(others).card[0]?.replace("{lang}", "German")} and one that ${pick(others).card[0]?.replace("{lang}", "French")}.`
      : "",
    "",
    "## Intended uses & limitations",
    "You can use the raw model for the task it was trained on. The model may reflect biases present in its training data and should not be used for high-stakes decisions without human review.",
    "",
    "## Training procedure",
    `The following hyperparameters were used during training: learning_rate: ${pick(["2e-05", "3e-05", "5e-05"])}, train_batch_size: ${pick([8, 16, 32])}, eval_batch_size: 16, seed: 42, optimizer: Adam with betas=(0.9,0.999) and epsilon=1e-08, lr_scheduler_type: linear, num_epochs: ${pick([3, 5, 10])}.`,
    "",
    "## Evaluation results",
    `It achieves the following results on the evaluation set: Loss: ${(next() * 0.5).toFixed(4)}, Accuracy: ${(0.8 + next() * 0.19).toFixed(3)}, F1: ${(0.8 + next() * 0.19).toFixed(3)}.`,
    "",
    "## Framework versions",
    "Transformers 4.40.0, Pytorch 2.3.0, Datasets 2.19.0, Tokenizers 0.19.1",
  ];
  return lines.filter((line, index) => line !== "" || lines[index - 1] !== "").join("\n");
}
