/**
 * Accuracy cannot silently regress: the evaluation script's figures must stay
 * at or above these floors (docs/insights.md explains the method and the
 * targets). Raise a floor when the lexicon improves; never lower one to make a
 * change pass without saying why in docs/insights.md.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runEvaluation } from '../../scripts/evaluate-insights.ts';

/** The product owner's targets, checked on the whole labelled set and on Yelp. */
const FLOORS = {
  aspectF1: 0.85,
  aspectPolarity: 0.85,
  sentencePolarity: 0.85,
  yelp: 0.75,
};
/**
 * The held-out half (never looked at while tuning) is the honest estimate. Its
 * polarity figures are still below the 0.85 target (docs/insights.md); these
 * floors only stop them from regressing.
 */
const HELD_OUT_FLOORS = {
  aspectF1: 0.85,
  aspectPolarity: 0.79,
  sentencePolarity: 0.78,
};

describe('accuracy of the insights pipeline', () => {
  const report = runEvaluation();
  const { labelled, heldout, yelp } = report.ours;

  it('has a labelled set of at least 300 sentences', () => {
    assert.ok(labelled.sentences >= 300, String(labelled.sentences));
  });
  it(`detects aspects with F1 ≥ ${FLOORS.aspectF1}`, () => {
    assert.ok(labelled.aspect.f1 >= FLOORS.aspectF1, JSON.stringify(labelled.aspect));
  });
  it(`gets aspect polarity right ≥ ${FLOORS.aspectPolarity}`, () => {
    assert.ok(labelled.aspectPolarity.accuracy >= FLOORS.aspectPolarity, JSON.stringify(labelled.aspectPolarity));
  });
  it(`gets sentence polarity right ≥ ${FLOORS.sentencePolarity}`, () => {
    assert.ok(labelled.sentencePolarity.accuracy >= FLOORS.sentencePolarity, JSON.stringify(labelled.sentencePolarity));
  });
  it(`gets Yelp sentence polarity right ≥ ${FLOORS.yelp}`, () => {
    assert.ok(yelp.accuracy >= FLOORS.yelp, JSON.stringify(yelp));
  });
  it(`held-out half: aspect F1 ≥ ${HELD_OUT_FLOORS.aspectF1}, aspect polarity ≥ ${HELD_OUT_FLOORS.aspectPolarity}, sentence polarity ≥ ${HELD_OUT_FLOORS.sentencePolarity}`, () => {
    assert.ok(heldout.sentences >= 140, String(heldout.sentences));
    assert.ok(heldout.aspect.f1 >= HELD_OUT_FLOORS.aspectF1, JSON.stringify(heldout.aspect));
    assert.ok(
      heldout.aspectPolarity.accuracy >= HELD_OUT_FLOORS.aspectPolarity,
      JSON.stringify(heldout.aspectPolarity),
    );
    assert.ok(
      heldout.sentencePolarity.accuracy >= HELD_OUT_FLOORS.sentencePolarity,
      JSON.stringify(heldout.sentencePolarity),
    );
  });
  it('beats both libraries used alone on our sentences and on Yelp', () => {
    for (const other of [report.wink, report.afinn]) {
      assert.ok(labelled.aspectPolarity.accuracy > other.labelled.aspectPolarity.accuracy);
      assert.ok(yelp.accuracy > other.yelp.accuracy);
    }
  });
});
